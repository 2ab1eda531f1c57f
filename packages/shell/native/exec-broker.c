/*
 * exec-broker: runs on the host beside one sandboxed command and answers the exec-gates inside it (exec-gate.c).
 *
 *   exec-broker SOCKET MAX_RUNS N PROGRAM... N BWRAP_ARG... N GUARD_ARG...
 *
 * Each PROGRAM is `e:PATH` (a binary) or `s:PATH` (a script, whose interpreter must read it).
 *
 * It listens on SOCKET (bound into the sandbox), reads each gate's request (program, working folder, argv,
 * environment, and its three standard file descriptors), and asks the runtime on stdout:
 *   REQ <id> <hex program> <hex cwd> <argc> <hex arg>...
 * The runtime answers on stdin, deciding with the command rules on that exact argv (a copy the gate can no longer
 * change):
 *   <id> run <program index>      run PROGRAM[index] with that argv
 *   <id> deny <hex reason>        refuse; the gate prints the reason and exits 126
 * A run is a fresh sandbox built from BWRAP_ARG... (the same mounts, gates and limits as the command's own) plus
 * `--chdir <cwd> --setenv ... -- GUARD_ARG... --exec-fd 3 -- argv`: the real program travels as file descriptor 3,
 * opened here before anything ran, and is on no path inside any sandbox. The gate's descriptors become its standard
 * input, output and error; its exit status goes back to the gate. At most MAX_RUNS runs at once (further requests
 * are refused): a command cannot use the broker to escape its process limit.
 * The broker exits when the runtime closes its stdin.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CONNECTIONS 64
#define MAX_MESSAGE (1 << 20)

enum state { FREE, READING, DECIDING, RUNNING };

struct connection {
  enum state state;
  int fd, pidfd, fds[3];
  pid_t child;
  unsigned long id;
  char head[4], *message;
  size_t have, need;
};

static struct connection connections[MAX_CONNECTIONS];
static char **programs, **bwrap_args, **guard_args;
static int *program_fds, program_count, bwrap_count, guard_count, max_runs, running;
static unsigned long next_id = 1;

static void die(const char *what) {
  fprintf(stderr, "skillgraph exec-broker: %s: %s\n", what, errno ? strerror(errno) : "invalid use");
  exit(125);
}

static void answer(struct connection *c, int32_t kind, int32_t value, const char *reason) {
  uint32_t length = (uint32_t)strlen(reason);
  int32_t head[2] = {kind, value};
  char buffer[8 + 4 + 4096];
  if (length > 4096) length = 4096;
  memcpy(buffer, head, 8);
  memcpy(buffer + 8, &length, 4);
  memcpy(buffer + 12, reason, length);
  /* a gate that stopped reading only loses its own answer */
  if (send(c->fd, buffer, 12 + length, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
  }
}

static void release(struct connection *c) {
  if (c->state == RUNNING) {
    syscall(SYS_pidfd_send_signal, c->pidfd, SIGKILL, NULL, 0);
    waitpid(c->child, NULL, 0);
    running--;
  }
  if (c->pidfd >= 0) close(c->pidfd);
  for (int i = 0; i < 3; i++)
    if (c->fds[i] >= 0) close(c->fds[i]);
  close(c->fd);
  free(c->message);
  memset(c, 0, sizeof *c);
  c->state = FREE;
}

static void hex(FILE *out, const char *text, size_t length) {
  if (length == 0) fputc('-', out);
  for (size_t i = 0; i < length; i++) fprintf(out, "%02x", (unsigned char)text[i]);
}

/* The NUL-terminated field at *at, or NULL past the end. */
static char *field(struct connection *c, size_t *at) {
  if (*at >= c->have) return NULL;
  char *start = c->message + *at;
  char *end = memchr(start, '\0', c->have - *at);
  if (!end) return NULL;
  *at += (size_t)(end - start) + 1;
  return start;
}

static void ask_runtime(struct connection *c) {
  size_t at = 0;
  char *program = field(c, &at), *cwd = field(c, &at), *count = field(c, &at);
  long argc = count ? strtol(count, NULL, 10) : -1;
  if (!program || !cwd || argc < 1 || argc > 100000) {
    answer(c, 2, 0, "malformed request");
    release(c);
    return;
  }
  c->id = next_id++;
  c->state = DECIDING;
  printf("REQ %lu ", c->id);
  hex(stdout, program, strlen(program));
  putchar(' ');
  hex(stdout, cwd, strlen(cwd));
  printf(" %ld", argc);
  for (long i = 0; i < argc; i++) {
    char *arg = field(c, &at);
    if (!arg) {
      answer(c, 2, 0, "malformed request");
      release(c);
      printf(" -\n");
      fflush(stdout);
      return;
    }
    putchar(' ');
    hex(stdout, arg, strlen(arg));
  }
  putchar('\n');
  fflush(stdout);
}

static void receive(struct connection *c) {
  char control[CMSG_SPACE(sizeof(int) * 3)];
  int header = c->need == 0;
  struct iovec chunk = header ? (struct iovec){c->head + c->have, 4 - c->have}
                              : (struct iovec){c->message + c->have, c->need - c->have};
  struct msghdr message = {.msg_iov = &chunk, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  ssize_t got = recvmsg(c->fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
  for (struct cmsghdr *part = CMSG_FIRSTHDR(&message); part; part = CMSG_NXTHDR(&message, part)) {
    if (part->cmsg_level != SOL_SOCKET || part->cmsg_type != SCM_RIGHTS) continue;
    int count = (int)((part->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    int *received = (int *)CMSG_DATA(part);
    for (int i = 0; i < count; i++) {
      if (i < 3 && c->fds[i] < 0) c->fds[i] = received[i];
      else close(received[i]);
    }
  }
  if (got <= 0) {
    release(c);
    return;
  }
  c->have += (size_t)got;
  if (header) {
    if (c->have < 4) return;
    uint32_t length;
    memcpy(&length, c->head, 4);
    if (length == 0 || length > MAX_MESSAGE) {
      answer(c, 2, 0, "request too large");
      release(c);
      return;
    }
    c->message = malloc(length);
    if (!c->message) die("out of memory");
    c->need = length;
    c->have = 0;
    return;
  }
  if (c->have < c->need) return;
  if (c->fds[0] < 0 || c->fds[1] < 0 || c->fds[2] < 0) {
    answer(c, 2, 0, "the request carried no standard input, output and error");
    release(c);
    return;
  }
  ask_runtime(c);
}

static void start(struct connection *c, int program) {
  size_t at = 0;
  field(c, &at);
  char *cwd = field(c, &at);
  long argc = strtol(field(c, &at), NULL, 10);
  char **argv = calloc((size_t)argc + 1, sizeof *argv);
  for (long i = 0; i < argc; i++) argv[i] = field(c, &at);
  char *count = field(c, &at);
  long envc = count ? strtol(count, NULL, 10) : 0;
  if (envc < 0 || envc > 100000) envc = 0;
  size_t total = (size_t)bwrap_count + 2 + 3 * (size_t)envc + 1 + (size_t)guard_count + 3 + (size_t)argc + 1;
  char **args = calloc(total, sizeof *args);
  if (!argv || !args) die("out of memory");
  size_t n = 0;
  for (int i = 0; i < bwrap_count; i++) args[n++] = bwrap_args[i];
  args[n++] = "--chdir";
  args[n++] = cwd;
  for (long i = 0; i < envc; i++) {
    char *entry = field(c, &at);
    char *equals = entry ? strchr(entry, '=') : NULL;
    if (!equals || equals == entry) continue;
    *equals = '\0';
    args[n++] = "--setenv";
    args[n++] = entry;
    args[n++] = equals + 1;
  }
  args[n++] = "--";
  for (int i = 0; i < guard_count; i++) args[n++] = guard_args[i];
  args[n++] = programs[program][0] == 's' ? "--exec-script-fd" : "--exec-fd";
  args[n++] = "3";
  args[n++] = "--";
  for (long i = 0; i < argc; i++) args[n++] = argv[i];
  args[n] = NULL;

  pid_t child = fork();
  if (child < 0) {
    answer(c, 2, 0, "cannot start the program (fork failed)");
    release(c);
  } else if (child == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    int program_fd = fcntl(program_fds[program], F_DUPFD, 10);
    if (dup2(c->fds[0], 0) < 0 || dup2(c->fds[1], 1) < 0 || dup2(c->fds[2], 2) < 0 || program_fd < 0 ||
        dup2(program_fd, 3) < 0)
      _exit(125);
    execv(args[0], args);
    fprintf(stderr, "skillgraph exec-broker: cannot start %s: %s\n", args[0], strerror(errno));
    _exit(125);
  } else {
    c->child = child;
    c->pidfd = (int)syscall(SYS_pidfd_open, child, 0);
    if (c->pidfd < 0) die("pidfd_open");
    c->state = RUNNING;
    running++;
  }
  free(argv);
  free(args);
}

static struct connection *by_id(unsigned long id) {
  for (int i = 0; i < MAX_CONNECTIONS; i++)
    if (connections[i].state == DECIDING && connections[i].id == id) return &connections[i];
  return NULL;
}

static int unhex(char *text) {
  size_t length = strlen(text);
  if (length % 2) return -1;
  for (size_t i = 0; i < length / 2; i++) {
    unsigned value;
    if (sscanf(text + 2 * i, "%2x", &value) != 1) return -1;
    text[i] = (char)value;
  }
  text[length / 2] = '\0';
  return 0;
}

/* One decision line from the runtime. */
static void decide(char *line) {
  char verb[8], detail[8192];
  unsigned long id;
  detail[0] = '\0';
  if (sscanf(line, "%lu %7s %8191s", &id, verb, detail) < 2) die("malformed decision from the runtime");
  struct connection *c = by_id(id);
  if (!c) return; /* the gate went away meanwhile */
  if (strcmp(verb, "run") == 0) {
    int program = atoi(detail);
    if (program < 0 || program >= program_count) die("decision names an unknown program");
    if (running >= max_runs) {
      answer(c, 2, 0, "too many programs started through the rules at once");
      release(c);
      return;
    }
    start(c, program);
  } else {
    if (unhex(detail) != 0) strcpy(detail, "refused by the command rules");
    answer(c, 2, 0, detail);
    release(c);
  }
}

static char **take_list(char **argv, int *at, int argc, int *count) {
  if (*at >= argc) die("usage: exec-broker SOCKET MAX_RUNS N PROGRAM... N BWRAP_ARG... N GUARD_ARG...");
  *count = atoi(argv[(*at)++]);
  if (*count < 0 || *at + *count > argc) die("argument counts do not match");
  char **list = argv + *at;
  *at += *count;
  return list;
}

int main(int argc, char **argv) {
  errno = 0;
  if (argc < 4) die("usage: exec-broker SOCKET MAX_RUNS N PROGRAM... N BWRAP_ARG... N GUARD_ARG...");
  const char *socket_path = argv[1];
  max_runs = atoi(argv[2]);
  int at = 3;
  programs = take_list(argv, &at, argc, &program_count);
  bwrap_args = take_list(argv, &at, argc, &bwrap_count);
  guard_args = take_list(argv, &at, argc, &guard_count);
  if (bwrap_count == 0 || guard_count == 0 || max_runs < 1) die("empty sandbox or guard arguments");
  program_fds = calloc((size_t)program_count + 1, sizeof *program_fds);
  for (int i = 0; i < program_count; i++) {
    if ((programs[i][0] != 'e' && programs[i][0] != 's') || programs[i][1] != ':')
      die("a program is written e:PATH (a binary) or s:PATH (a script)");
    program_fds[i] = open(programs[i] + 2, O_PATH | O_CLOEXEC | O_NOFOLLOW);
    if (program_fds[i] < 0) die(programs[i]);
  }
  signal(SIGPIPE, SIG_IGN);
  int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(socket_path) >= sizeof address.sun_path) die("socket path too long");
  strcpy(address.sun_path, socket_path);
  if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 64) != 0)
    die(socket_path);
  for (int i = 0; i < MAX_CONNECTIONS; i++) connections[i].state = FREE;
  printf("READY\n");
  fflush(stdout);

  char line[65536];
  size_t line_used = 0;
  for (;;) {
    struct pollfd watched[2 + MAX_CONNECTIONS * 2];
    int owner[2 + MAX_CONNECTIONS * 2], kind[2 + MAX_CONNECTIONS * 2], n = 0;
    watched[n] = (struct pollfd){.fd = 0, .events = POLLIN};
    owner[n] = -1, kind[n++] = 0;
    watched[n] = (struct pollfd){.fd = listener, .events = POLLIN};
    owner[n] = -1, kind[n++] = 1;
    for (int i = 0; i < MAX_CONNECTIONS; i++) {
      struct connection *c = &connections[i];
      if (c->state == FREE) continue;
      /* a gate that is gone (its command killed) ends what it asked for */
      watched[n] = (struct pollfd){.fd = c->fd, .events = c->state == READING ? POLLIN : POLLRDHUP};
      owner[n] = i, kind[n++] = 2;
      if (c->state == RUNNING) {
        watched[n] = (struct pollfd){.fd = c->pidfd, .events = POLLIN};
        owner[n] = i, kind[n++] = 3;
      }
    }
    if (poll(watched, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    for (int k = 0; k < n; k++) {
      if (!watched[k].revents) continue;
      struct connection *c = owner[k] >= 0 ? &connections[owner[k]] : NULL;
      if (kind[k] == 0) {
        ssize_t got = read(0, line + line_used, sizeof line - 1 - line_used);
        if (got <= 0) {
          for (int i = 0; i < MAX_CONNECTIONS; i++)
            if (connections[i].state != FREE) release(&connections[i]);
          unlink(socket_path);
          return 0;
        }
        line_used += (size_t)got;
        char *end;
        while ((end = memchr(line, '\n', line_used)) != NULL) {
          *end = '\0';
          decide(line);
          line_used -= (size_t)(end + 1 - line);
          memmove(line, end + 1, line_used);
        }
        if (line_used == sizeof line - 1) die("decision line too long");
      } else if (kind[k] == 1) {
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) continue;
        int slot = -1;
        for (int i = 0; i < MAX_CONNECTIONS && slot < 0; i++)
          if (connections[i].state == FREE) slot = i;
        if (slot < 0) {
          close(fd);
          continue;
        }
        connections[slot] = (struct connection){.state = READING, .fd = fd, .pidfd = -1, .fds = {-1, -1, -1}};
      } else if (kind[k] == 2 && c->state == READING) {
        receive(c);
      } else if (kind[k] == 2 && c->state != FREE) {
        release(c);
      } else if (kind[k] == 3 && c->state == RUNNING) {
        int status = 0;
        waitpid(c->child, &status, 0);
        running--;
        c->state = DECIDING; /* no longer RUNNING: release() must not kill or wait again */
        if (WIFSIGNALED(status)) answer(c, 1, WTERMSIG(status), "");
        else answer(c, 0, WEXITSTATUS(status), "");
        release(c);
      }
    }
  }
}
