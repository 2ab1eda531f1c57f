/*
 * loader-shim: bound over the dynamic loader (ld-linux-x86-64.so.2) inside a sandbox whose programs run under an allow
 * list (exec-guard --exec-file). The kernel loads the file a program's PT_INTERP names with the same execute right as
 * a program, so the loader must be executable for any dynamic program to start; run as a program of its own, glibc's
 * loader loads any file it is given (`ld.so /usr/bin/curl`), which would run a program the allow list does not admit.
 * This shim is what the kernel loads instead:
 *   - started as an interpreter (AT_BASE is its own load address), it maps the real loader from SHIM_LOADER (a path
 *     that is mappable but not executable under the allow list) exactly as the kernel would, sets AT_BASE to it and
 *     jumps to its entry with the untouched stack: the program then starts as usual;
 *   - started as a program (AT_BASE is 0: nothing was loaded for it), it refuses with status 126.
 * Freestanding (no libc, no relocations), built as a static PIE so it can load at any address, as an interpreter must.
 */
#include <elf.h>
#include <stddef.h>

#ifndef SHIM_LOADER
#define SHIM_LOADER "/.skillgraph-loader/ld.so"
#endif
#define PAGE 4096UL

static long sys6(long n, long a, long b, long c, long d, long e, long f) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9) : "rcx", "r11", "memory");
  return ret;
}

enum { SYS_read_ = 0, SYS_write_ = 1, SYS_open_ = 2, SYS_close_ = 3, SYS_mmap_ = 9, SYS_mprotect_ = 10,
       SYS_pread_ = 17, SYS_exit_group_ = 231 };

static void say(const char *text) {
  size_t length = 0;
  while (text[length]) length++;
  sys6(SYS_write_, 2, (long)text, (long)length, 0, 0, 0);
}

static __attribute__((noreturn)) void refuse(const char *text) {
  say("skillgraph: ");
  say(text);
  say("\n");
  for (;;) sys6(SYS_exit_group_, 126, 0, 0, 0, 0, 0);
}

static int protection(Elf64_Word flags) {
  return ((flags & PF_R) ? 1 : 0) | ((flags & PF_W) ? 2 : 0) | ((flags & PF_X) ? 4 : 0);
}

/* Maps the real loader; returns its entry point and sets *base_out. */
static unsigned long map_loader(unsigned long *base_out) {
  long fd = sys6(SYS_open_, (long)SHIM_LOADER, 0 /* O_RDONLY */ | 02000000 /* O_CLOEXEC */, 0, 0, 0, 0);
  if (fd < 0) refuse("the dynamic loader is not available in this sandbox");
  Elf64_Ehdr header;
  Elf64_Phdr segments[32];
  if (sys6(SYS_pread_, fd, (long)&header, sizeof header, 0, 0, 0) != (long)sizeof header ||
      header.e_ident[EI_MAG0] != ELFMAG0 || header.e_ident[EI_MAG1] != ELFMAG1 || header.e_ident[EI_MAG2] != ELFMAG2 ||
      header.e_ident[EI_MAG3] != ELFMAG3 || header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN ||
      header.e_machine != EM_X86_64 || header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0 ||
      header.e_phnum > 32)
    refuse("the dynamic loader is not a 64-bit x86 shared object");
  long table = (long)header.e_phnum * (long)sizeof(Elf64_Phdr);
  if (sys6(SYS_pread_, fd, (long)segments, table, (long)header.e_phoff, 0, 0) != table)
    refuse("cannot read the dynamic loader's program headers");
  unsigned long low = ~0UL, high = 0;
  for (int i = 0; i < header.e_phnum; i++) {
    if (segments[i].p_type != PT_LOAD) continue;
    unsigned long start = segments[i].p_vaddr & ~(PAGE - 1);
    unsigned long end = (segments[i].p_vaddr + segments[i].p_memsz + PAGE - 1) & ~(PAGE - 1);
    if (start < low) low = start;
    if (end > high) high = end;
  }
  if (high <= low) refuse("the dynamic loader has nothing to load");
  /* reserve the whole span, then map each segment over it */
  long reserved = sys6(SYS_mmap_, 0, (long)(high - low), 0 /* PROT_NONE */, 0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */, -1, 0);
  if (reserved < 0 && reserved > -4096) refuse("cannot reserve memory for the dynamic loader");
  unsigned long base = (unsigned long)reserved - low;
  for (int i = 0; i < header.e_phnum; i++) {
    Elf64_Phdr *segment = &segments[i];
    if (segment->p_type != PT_LOAD) continue;
    int prot = protection(segment->p_flags);
    unsigned long start = base + (segment->p_vaddr & ~(PAGE - 1));
    unsigned long file_end = base + segment->p_vaddr + segment->p_filesz;
    unsigned long mem_end = base + segment->p_vaddr + segment->p_memsz;
    unsigned long offset = segment->p_offset & ~(PAGE - 1);
    int bss = segment->p_memsz > segment->p_filesz;
    if (segment->p_filesz > 0) {
      long mapped = sys6(SYS_mmap_, (long)start, (long)(file_end - start), prot | (bss ? 2 : 0),
                         0x12 /* MAP_PRIVATE|MAP_FIXED */, fd, (long)offset);
      if (mapped != (long)start) refuse("cannot map the dynamic loader");
    }
    if (bss) {
      /* the rest of the last file page is zero, as the kernel leaves it (the loader's first allocations use it and
         count on zeroes), and whole pages past it are anonymous */
      unsigned long page_end = (file_end + PAGE - 1) & ~(PAGE - 1);
      if (segment->p_filesz > 0)
        for (unsigned long at = file_end; at < page_end; at++) *(volatile char *)at = 0;
      unsigned long zero_start = segment->p_filesz > 0 ? page_end : start;
      unsigned long zero_end = (mem_end + PAGE - 1) & ~(PAGE - 1);
      if (zero_end > zero_start &&
          sys6(SYS_mmap_, (long)zero_start, (long)(zero_end - zero_start), prot, 0x32 /* PRIVATE|FIXED|ANONYMOUS */,
               -1, 0) != (long)zero_start)
        refuse("cannot map the dynamic loader's zeroed memory");
      if (segment->p_filesz > 0 && sys6(SYS_mprotect_, (long)start, (long)(page_end - start), prot, 0, 0, 0) != 0)
        refuse("cannot protect the dynamic loader");
    }
  }
  sys6(SYS_close_, fd, 0, 0, 0, 0, 0);
  *base_out = base;
  return base + header.e_entry;
}

__attribute__((used, noreturn)) void shim_main(long *stack) {
  long argc = stack[0];
  char **environment = (char **)(stack + 1 + argc + 1);
  while (*environment) environment++;
  Elf64_auxv_t *auxv = (Elf64_auxv_t *)(environment + 1);
  Elf64_auxv_t *base_entry = NULL;
  for (Elf64_auxv_t *entry = auxv; entry->a_type != AT_NULL; entry++)
    if (entry->a_type == AT_BASE) base_entry = entry;
  if (!base_entry || base_entry->a_un.a_val == 0)
    refuse("the dynamic loader does not run as a program here: programs run only through the allow list");
  unsigned long base;
  unsigned long entry = map_loader(&base);
  base_entry->a_un.a_val = base;
  /* the loader's entry sees the stack as the kernel left it (argc at the top) and rdx = 0 (no atexit function) */
  __asm__ volatile("mov %0, %%rsp\n\txor %%edx, %%edx\n\tjmp *%1" : : "r"(stack), "r"(entry) : "memory");
  __builtin_unreachable();
}

__asm__(".text\n.global _start\n_start:\n\tmov %rsp, %rdi\n\tand $-16, %rsp\n\tcall shim_main\n\thlt\n");
