/*
 * denied-stub: bound over every path of a denied program inside the sandbox, so whoever starts that program (bash,
 * git, make, an interpreter's subprocess) starts this instead. It names the program by the file the kernel ran
 * (/proc/self/exe), never by argv[0], and exits 126 without running anything.
 */
#include <stdio.h>
#include <unistd.h>

int main(void) {
  char path[4096];
  ssize_t length = readlink("/proc/self/exe", path, sizeof path - 1);
  path[length > 0 ? length : 0] = '\0';
  fprintf(stderr, "skillgraph: '%s' is denied by the command rules; it did not run\n", length > 0 ? path : "?");
  return 126;
}
