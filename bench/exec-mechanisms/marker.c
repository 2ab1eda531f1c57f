#include <fcntl.h>
#include <unistd.h>
int main(int c, char **v) { int fd = creat(c > 1 ? v[1] : "/workspace/DENIED_RAN", 0644); return fd < 0; }
