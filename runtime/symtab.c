/*
 * symtab.c — names for the runtime's own C frames in tracebacks, from the
 * executable's ELF symbol table.
 *
 * gl's pc/line records (traceback.c) cover generated code only.  A frame
 * of the runtime's C shows at GLTRACEBACK=system and in the "runtime
 * stack:" of a fatal error thrown on the system stack (panic.c); Go names
 * such frames from its own tables, gl from the .symtab section glc's link
 * leaves in every program (it does not strip).  Each function symbol
 * gives a name and an extent; a static function also gives its source
 * file, because the linker puts every object's local symbols after an
 * STT_FILE symbol naming that object's source.  Lines would need DWARF's
 * line table, which is not read: a frame prints its function, its file
 * when known, and its offset.
 *
 * The table is read the first time it is needed, usually while the
 * program dies: with raw system calls (open, fstat, mmap of the whole
 * file read-only), no allocation and no lock — the dying M holds the
 * print lock, and a second reader that races the first finds the state
 * "reading" and goes without names.
 */
#include "rt.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

enum { symNone, symReading, symReady, symFailed };
static int32_t symstate;          /* atomic */
static const Elf64_Sym *syms;     /* .symtab, read-only in the mapping */
static uint64_t nsyms;
static const char *symstrs;       /* its string table */
static uint64_t nsymstrs;
static uintptr_t symbias;         /* run-time address - symbol value (0 without PIE) */

/* The mapped file's section headers, checked against its size. */
static const Elf64_Shdr *sections(const uint8_t *f, uint64_t size, uint16_t *n) {
	const Elf64_Ehdr *e = (const Elf64_Ehdr *)f;
	if (size < sizeof *e || e->e_ident[EI_MAG0] != ELFMAG0 || e->e_ident[EI_MAG1] != ELFMAG1 ||
	    e->e_ident[EI_MAG2] != ELFMAG2 || e->e_ident[EI_MAG3] != ELFMAG3 || e->e_ident[EI_CLASS] != ELFCLASS64 ||
	    e->e_shentsize != sizeof(Elf64_Shdr) || e->e_shoff > size ||
	    (uint64_t)e->e_shnum * sizeof(Elf64_Shdr) > size - e->e_shoff)
		return NULL;
	*n = e->e_shnum;
	return (const Elf64_Shdr *)(f + e->e_shoff);
}

/* Map /proc/self/exe and find .symtab and its strings. */
static bool loadsymtab(void) {
	long fd = rawsyscall6(SYS_openat, AT_FDCWD, (long)"/proc/self/exe", O_RDONLY | O_CLOEXEC, 0, 0, 0);
	if (fd < 0)
		return false;
	struct stat st;
	long r = rawsyscall6(SYS_fstat, fd, (long)&st, 0, 0, 0, 0);
	long m = r < 0 ? -1 : rawsyscall6(SYS_mmap_, 0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	rawsyscall6(SYS_close, fd, 0, 0, 0, 0, 0);
	if (r < 0 || (unsigned long)m > -4096UL)
		return false;
	const uint8_t *f = (const uint8_t *)m;
	uint64_t size = (uint64_t)st.st_size;
	uint16_t n;
	const Elf64_Shdr *sh = sections(f, size, &n);
	for (uint16_t i = 0; sh != NULL && i < n; i++) {
		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= n)
			continue;
		const Elf64_Shdr *str = &sh[sh[i].sh_link];
		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset || str->sh_offset > size ||
		    str->sh_size > size - str->sh_offset)
			return false;
		syms = (const Elf64_Sym *)(f + sh[i].sh_offset);
		nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
		symstrs = (const char *)(f + str->sh_offset);
		nsymstrs = str->sh_size;
		return true;
	}
	return false;
}

static const char *symstr(uint32_t off) {
	return off < nsymstrs ? symstrs + off : "?";
}

/* The bias of a position-independent executable: this function's address
 * against its symbol's value. */
static void findbias(void) {
	for (uint64_t i = 0; i < nsyms; i++)
		if (ELF64_ST_TYPE(syms[i].st_info) == STT_FUNC && !strcmp(symstr(syms[i].st_name), "findbias")) {
			symbias = (uintptr_t)findbias - (uintptr_t)syms[i].st_value;
			return;
		}
}

static bool symready(void) {
	int32_t st = __atomic_load_n(&symstate, __ATOMIC_ACQUIRE), none = symNone;
	if (st == symNone && __atomic_compare_exchange_n(&symstate, &none, symReading, false, __ATOMIC_ACQ_REL,
							  __ATOMIC_ACQUIRE)) {
		bool ok = loadsymtab();
		if (ok)
			findbias();
		st = ok ? symReady : symFailed;
		__atomic_store_n(&symstate, st, __ATOMIC_RELEASE);
	}
	return st == symReady;
}

/* The C function whose code holds pc: its name, its entry, and its source
 * file if the symbol table says (NULL if not).  False if no symbol
 * covers pc. */
bool cfuncname(uintptr_t pc, const char **name, const char **file, uintptr_t *entry) {
	if (!symready())
		return false;
	uintptr_t v = pc - symbias;
	const char *curfile = NULL;
	for (uint64_t i = 0; i < nsyms; i++) {
		const Elf64_Sym *s = &syms[i];
		unsigned type = ELF64_ST_TYPE(s->st_info), bind = ELF64_ST_BIND(s->st_info);
		if (type == STT_FILE) {
			curfile = symstr(s->st_name);
			continue;
		}
		if (bind != STB_LOCAL)
			curfile = NULL; /* the globals come after every file's locals */
		if (type != STT_FUNC || v < s->st_value || v - s->st_value >= s->st_size)
			continue;
		*name = symstr(s->st_name);
		*file = curfile;
		*entry = (uintptr_t)s->st_value + symbias;
		return true;
	}
	return false;
}
