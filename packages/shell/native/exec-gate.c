/*
 * exec-gate: bound over every path of a program that has argument-level rules (`git` when `git push` is denied or
 * needs approval), so whoever starts that program (bash, git's own drivers, make, an interpreter's subprocess) starts
 * this instead. It runs nothing itself: it asks the runtime's broker, over the socket bound into the sandbox, to run
 * its argv, and hands the broker its standard input, output and error. The broker decides on that argv with the
 * command rules and, when they allow it, runs the real program in a fresh sandbox of the same kind (the real file is
 * never reachable inside either sandbox). This process then exits with the program's status, or with 126 and the
 * broker's reason when the program was refused.
 *
 * Message to the broker: u32 length, then NUL-terminated fields: the program (the file the kernel ran, from
 * /proc/self/exe, never argv[0]), the working folder, argc, argv..., envc, environment... The three standard file
 * descriptors travel as SCM_RIGHTS. Answer: i32 kind (0 exited, 1 killed by a signal, 2 refused), i32 value, u32
 * length, message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define BROKER_SOCKET "/.skillgraph-broker/socket"
#define MAX_MESSAGE (1 << 20)

extern char **environ;

static char program[4096] = "?";

static void refuse(const char *why) {
  fprintf(stderr, "skillgraph: '%s' runs only through the runtime's rules: %s; it did not run\n", program, why);
  exit(126);
}

static size_t put(char *buffer, size_t used, const char *text) {
  size_t length = strlen(text) + 1;
  if (used + length > MAX_MESSAGE) refuse("its arguments and environment are too large (over 1 MiB)");
  memcpy(buffer + used, text, length);
  return used + length;
}

static void read_exactly(int fd, void *into, size_t length) {
  char *at = into;
  while (length > 0) {
    ssize_t got = read(fd, at, length);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) refuse("the broker went away before answering");
    at += got;
    length -= (size_t)got;
  }
}

int main(int argc, char **argv) {
  /* a program started with a standard descriptor closed (`git status <&-`) gets /dev/null there, as the broker needs
     all three to hand on */
  for (int fd = 0; fd < 3; fd++)
    if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd) return 126;
  ssize_t length = readlink("/proc/self/exe", program, sizeof program - 1);
  program[length > 0 ? length : 0] = '\0';
  if (length <= 0) strcpy(program, "?");

  char *message = malloc(MAX_MESSAGE + 4);
  if (!message) refuse("out of memory");
  size_t used = 4;
  char number[32], cwd[4096];
  used = put(message, used, program);
  used = put(message, used, getcwd(cwd, sizeof cwd) ? cwd : "/");
  snprintf(number, sizeof number, "%d", argc);
  used = put(message, used, number);
  for (int i = 0; i < argc; i++) used = put(message, used, argv[i]);
  int envc = 0;
  for (char **entry = environ; *entry; entry++) envc++;
  snprintf(number, sizeof number, "%d", envc);
  used = put(message, used, number);
  for (char **entry = environ; *entry; entry++) used = put(message, used, *entry);
  uint32_t body = (uint32_t)(used - 4);
  memcpy(message, &body, 4);

  int broker = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strcpy(address.sun_path, BROKER_SOCKET);
  if (broker < 0) refuse("no socket for the runtime's broker");
  /* the broker starts beside the command: wait up to 10 s for its socket to appear */
  for (int attempt = 0; connect(broker, (struct sockaddr *)&address, sizeof address) != 0; attempt++) {
    if ((errno != ENOENT && errno != ECONNREFUSED) || attempt >= 2000) refuse("the runtime's broker cannot be reached");
    struct timespec pause = {0, 5 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }

  int fds[3] = {0, 1, 2};
  char control[CMSG_SPACE(sizeof fds)];
  memset(control, 0, sizeof control);
  struct iovec chunk = {.iov_base = message, .iov_len = used};
  struct msghdr header = {.msg_iov = &chunk, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
  struct cmsghdr *rights = CMSG_FIRSTHDR(&header);
  rights->cmsg_level = SOL_SOCKET;
  rights->cmsg_type = SCM_RIGHTS;
  rights->cmsg_len = CMSG_LEN(sizeof fds);
  memcpy(CMSG_DATA(rights), fds, sizeof fds);
  ssize_t sent = sendmsg(broker, &header, MSG_NOSIGNAL);
  if (sent < 0) refuse("the request could not be sent to the broker");
  for (size_t done = (size_t)sent; done < used;) {
    ssize_t more = send(broker, message + done, used - done, MSG_NOSIGNAL);
    if (more < 0 && errno == EINTR) continue;
    if (more <= 0) refuse("the request could not be sent to the broker");
    done += (size_t)more;
  }
  free(message);

  int32_t answer[2];
  uint32_t reason_length;
  read_exactly(broker, answer, sizeof answer);
  read_exactly(broker, &reason_length, sizeof reason_length);
  if (reason_length > 65536) refuse("the broker's answer is malformed");
  char *reason = calloc(reason_length + 1, 1);
  if (!reason) refuse("out of memory");
  read_exactly(broker, reason, reason_length);
  if (answer[0] == 0) return answer[1] & 0xff;
  if (answer[0] == 1) {
    signal(answer[1], SIG_DFL);
    raise(answer[1]);
    return 128 + answer[1];
  }
  refuse(reason_length > 0 ? reason : "refused");
  return 126;
}
