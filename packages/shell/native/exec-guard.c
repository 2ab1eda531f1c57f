/*
 * exec-guard: the first program of a sandboxed command (bubblewrap execs it, then it execs the command).
 * It sets up, in this order, restrictions that every program the command ever starts inherits:
 *   1. remounts every mount that is not an --exec DIR or beneath one (read from /proc/self/mountinfo: the workspace,
 *      /tmp, /dev, /dev/shm, the sandbox's root, /etc files) with MS_NOEXEC, so no file there can be executed or
 *      mapped executable: this stops `ld.so ./copy`, which maps the copy instead of executing it, where Landlock
 *      (which governs execve only) would let it through;
 *   2. drops every capability (bounding, ambient, effective, permitted, inheritable) and sets no_new_privs;
 *   3. Landlock: files may be executed only beneath the --exec DIR hierarchies (read-only system and skill folders)
 *      and, with --exec-file FILE (an allow list), those single files: a --map DIR is kept executable-mappable (its
 *      libraries load) without giving its files the right to be executed;
 *   4. seccomp: memfd_create and memfd_secret fail with EPERM (an in-memory file is on no path Landlock governs and
 *      could be mapped executable by ld.so), and any non-x86_64 system call ABI kills the process;
 *   5. execvp(command), or with --exec-fd N (an exec-broker run) the program open as descriptor N, which is on no path
 *      inside the sandbox: Landlock lets that one file run too, and an ELF program's descriptor is closed on exec
 *      (a script's stays open: its interpreter reads it through /dev/fd/N).
 * Any failure stops with exit status 125 and a message on stderr: it never runs the command unrestricted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_PATHS 64
#define MAX_FILES 4096

extern char **environ;

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "skillgraph exec-guard: %s%s%s: %s (the command did not run)\n", what, detail ? " " : "",
          detail ? detail : "", errno ? strerror(errno) : "invalid use");
  exit(125);
}

static void remount_noexec(const char *dir) {
  struct statvfs info;
  if (statvfs(dir, &info) != 0) fail("cannot stat", dir);
  unsigned long flags = MS_REMOUNT | MS_BIND | MS_NOEXEC;
  /* flags a mount already has must be kept, or a remount in a user namespace fails with EPERM */
  if (info.f_flag & ST_RDONLY) flags |= MS_RDONLY;
  if (info.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (info.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (info.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (info.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (info.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  if (mount(NULL, dir, NULL, flags, NULL) != 0) fail("cannot remount noexec", dir);
}

/* Decodes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *text) {
  char *out = text;
  for (char *in = text; *in; out++) {
    if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0' && in[3] <= '7') {
      *out = (char)((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
      in += 4;
    } else *out = *in++;
  }
  *out = '\0';
}

static int has_option(const char *options, const char *name) {
  size_t length = strlen(name);
  for (const char *at = options; (at = strstr(at, name)) != NULL; at += length)
    if ((at == options || at[-1] == ',') && (at[length] == ',' || at[length] == '\0')) return 1;
  return 0;
}

static int is_beneath(const char *path, const char *root) {
  size_t length = strlen(root);
  if (length == 1 && root[0] == '/') return 1;
  return strncmp(path, root, length) == 0 && (path[length] == '\0' || path[length] == '/');
}

/* Every mount outside the exec roots that is not noexec yet becomes noexec. */
static void remount_noexec_outside(char **roots, int root_count) {
  FILE *mounts = fopen("/proc/self/mountinfo", "r");
  if (!mounts) fail("cannot read", "/proc/self/mountinfo");
  char line[8192], targets[256][512];
  int count = 0;
  while (fgets(line, sizeof line, mounts)) {
    char target[4096], options[1024];
    unsigned long long id;
    if (sscanf(line, "%llu %*s %*s %*s %4095s %1023s", &id, target, options) != 3)
      fail("cannot parse", "/proc/self/mountinfo");
    unescape(target);
    if (has_option(options, "noexec")) continue;
    /* a mount hidden under a later one (a read-only path under /tmp, covered by the sandbox's /tmp) cannot be reached:
       what its path shows now is another mount, which has a line of its own */
    struct statx seen;
    if (statx(AT_FDCWD, target, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &seen) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) continue;
      fail("cannot stat", target);
    }
    if (!(seen.stx_mask & STATX_MNT_ID)) fail("the kernel does not report mount ids for", target);
    if (seen.stx_mnt_id != id) continue;
    int kept = 0;
    for (int k = 0; k < root_count; k++) kept |= is_beneath(target, roots[k]);
    if (kept) continue;
    if (count == 256 || strlen(target) >= sizeof targets[0]) fail("too many or too long mount points in", "/proc/self/mountinfo");
    strcpy(targets[count++], target);
  }
  fclose(mounts);
  for (int n = 0; n < count; n++) remount_noexec(targets[n]);
}

static void drop_capabilities(void) {
  /* a capability still in the bounding set is dropped (that needs CAP_SETPCAP, which bubblewrap leaves for this) */
  for (int cap = 0; cap <= 63; cap++)
    if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) == 1 && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0)
      fail("cannot drop a capability from the bounding set", NULL);
  errno = 0;
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0) fail("cannot clear ambient capabilities", NULL);
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &header, data) != 0) fail("cannot drop capabilities", NULL);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("cannot set no_new_privs", NULL);
}

static void add_rule(int ruleset, int fd, __u64 access, const char *what) {
  struct landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
  if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) != 0)
    fail("cannot add a Landlock rule for", what);
}

static void restrict_execution(char **dirs, int count, char **files, int file_count, int program_fd) {
  int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi < 1) fail("Landlock is not available in this kernel", NULL);
  /* a ruleset that does not handle REFER denies every link or rename into another folder (EXDEV: `mv a/x b/`, git's
     object store); handled and granted everywhere, it only refuses moves that would make a file executable */
  __u64 refer = abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0;
  struct landlock_ruleset_attr attr = {.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE | refer};
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (ruleset < 0) fail("cannot create a Landlock ruleset", NULL);
  if (refer) {
    int root = open("/", O_PATH | O_CLOEXEC);
    if (root < 0) fail("cannot open", "/");
    add_rule(ruleset, root, refer, "/");
    close(root);
  }
  for (int i = 0; i < count; i++) {
    int fd = open(dirs[i], O_PATH | O_CLOEXEC);
    if (fd < 0) fail("cannot open", dirs[i]);
    add_rule(ruleset, fd, LANDLOCK_ACCESS_FS_EXECUTE | refer, dirs[i]);
    close(fd);
  }
  for (int i = 0; i < file_count; i++) {
    int fd = open(files[i], O_PATH | O_CLOEXEC);
    struct stat seen;
    if (fd < 0 || fstat(fd, &seen) != 0) fail("cannot open", files[i]);
    if (!S_ISREG(seen.st_mode)) fail("an --exec-file is not a regular file:", files[i]);
    add_rule(ruleset, fd, LANDLOCK_ACCESS_FS_EXECUTE, files[i]);
    close(fd);
  }
  if (program_fd >= 0) add_rule(ruleset, program_fd, LANDLOCK_ACCESS_FS_EXECUTE, "the brokered program");
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) fail("cannot enforce the Landlock ruleset", NULL);
  close(ruleset);
}

static void deny_memfd(void) {
  struct sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      /* x32 system calls (nr | 0x40000000) are another way to reach memfd_create */
      BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_memfd_create, 1, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_memfd_secret, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog program = {.len = sizeof filter / sizeof filter[0], .filter = filter};
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) fail("cannot load the seccomp filter", NULL);
}

int main(int argc, char **argv) {
  static char *exec_files[MAX_FILES];
  char *exec_dirs[MAX_PATHS], *mapped_dirs[2 * MAX_PATHS];
  int exec_count = 0, mapped_count = 0, file_count = 0, i = 1, program_fd = -1, script = 0;
  errno = 0;
  for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
    if (strcmp(argv[i], "--exec") == 0 && i + 1 < argc && exec_count < MAX_PATHS) {
      exec_dirs[exec_count++] = argv[++i];
      mapped_dirs[mapped_count++] = argv[i];
    } else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc && mapped_count < 2 * MAX_PATHS)
      mapped_dirs[mapped_count++] = argv[++i];
    else if (strcmp(argv[i], "--exec-file") == 0 && i + 1 < argc && file_count < MAX_FILES)
      exec_files[file_count++] = argv[++i];
    else if ((strcmp(argv[i], "--exec-fd") == 0 || strcmp(argv[i], "--exec-script-fd") == 0) && i + 1 < argc &&
             program_fd < 0) {
      script = argv[i][6] == 's';
      program_fd = atoi(argv[++i]);
      if (program_fd < 3 || fcntl(program_fd, F_GETFD) < 0) fail("--exec-fd needs an open descriptor above 2:", argv[i]);
    } else fail("unknown or repeated-too-often argument", argv[i]);
  }
  if (i + 1 >= argc)
    fail("usage: exec-guard (--exec DIR | --map DIR)... [--exec-file FILE]... -- COMMAND [ARG]...", NULL);
  if (mapped_count == 0) fail("at least one --exec or --map folder is needed", NULL);
  for (int n = 0; n < mapped_count; n++)
    if (mapped_dirs[n][0] != '/') fail("an --exec or --map folder must be an absolute path:", mapped_dirs[n]);
  for (int n = 0; n < file_count; n++)
    if (exec_files[n][0] != '/') fail("an --exec-file must be an absolute path:", exec_files[n]);
  /* a mount namespace of its own: under an unprivileged bubblewrap the command runs in a user namespace nested in the
     one that owns bubblewrap's mount namespace, where no mount can be changed; in a new one, owned by this user
     namespace, the mounts copied in can still be made noexec (only clearing their flags is refused) */
  if (unshare(CLONE_NEWNS) != 0) fail("cannot make a mount namespace", NULL);
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail("cannot make the mounts private", NULL);
  remount_noexec_outside(mapped_dirs, mapped_count);
  drop_capabilities();
  restrict_execution(exec_dirs, exec_count, exec_files, file_count, program_fd);
  deny_memfd();
  if (program_fd >= 0) {
    if (fcntl(program_fd, F_SETFD, script ? 0 : FD_CLOEXEC) != 0) fail("cannot prepare the brokered program", NULL);
    execveat(program_fd, "", argv + i + 1, environ, AT_EMPTY_PATH);
    fail("cannot execute the brokered program", argv[i + 1]);
  }
  execvp(argv[i + 1], argv + i + 1);
  fail("cannot execute", argv[i + 1]);
  return 125;
}
