/*===- elf_check.c - Is this a complete x86-64 shared object? ------------===*
 *
 * The dynamic loader trusts the file it maps: a truncated or damaged
 * shared object makes it read past the end of the mapping (SIGBUS) or jump
 * into garbage. These checks, on the file's bytes, come first.
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_module_abi.h"

#include <elf.h>
#include <string.h>

/* True when [offset, offset + length) lies within `size` bytes. */
static int within(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

const char *kiln_check_elf_shared_object(const unsigned char *data,
                                         uint64_t size) {
  Elf64_Ehdr header;
  if (size < sizeof(header))
    return "it is shorter than an ELF header";
  memcpy(&header, data, sizeof(header));
  if (memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return "it is not an ELF file";
  if (header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_ident[EI_VERSION] != EV_CURRENT)
    return "it is not a 64-bit little-endian ELF file";
  if (header.e_type != ET_DYN)
    return "it is not a shared object";
  if (header.e_machine != EM_X86_64)
    return "it is not for x86-64";
  if (header.e_ehsize != sizeof(Elf64_Ehdr))
    return "its ELF header has the wrong size";
  if (header.e_phnum == 0 || header.e_phentsize != sizeof(Elf64_Phdr) ||
      !within(header.e_phoff, (uint64_t)header.e_phnum * sizeof(Elf64_Phdr),
              size))
    return "its program headers are missing or lie past the end of the file "
           "(truncated?)";
  int loadable = 0;
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    memcpy(&segment, data + header.e_phoff + i * sizeof(Elf64_Phdr),
           sizeof(segment));
    if (segment.p_type != PT_LOAD && segment.p_type != PT_DYNAMIC)
      continue;
    if (!within(segment.p_offset, segment.p_filesz, size))
      return "a segment lies past the end of the file (truncated?)";
    if (segment.p_type == PT_LOAD) {
      ++loadable;
      if (segment.p_filesz > segment.p_memsz)
        return "a segment holds more bytes in the file than in memory";
      if (segment.p_align > 1 && (segment.p_offset % segment.p_align) !=
                                     (segment.p_vaddr % segment.p_align))
        return "a segment is misaligned";
    }
  }
  if (!loadable)
    return "it has nothing to load";
  if (header.e_shoff != 0 &&
      (header.e_shentsize != sizeof(Elf64_Shdr) ||
       !within(header.e_shoff, (uint64_t)header.e_shnum * sizeof(Elf64_Shdr),
               size)))
    return "its section headers lie past the end of the file (truncated?)";
  for (unsigned i = 0; header.e_shoff != 0 && i < header.e_shnum; ++i) {
    Elf64_Shdr section;
    memcpy(&section, data + header.e_shoff + i * sizeof(Elf64_Shdr),
           sizeof(section));
    if (section.sh_type != SHT_NOBITS && section.sh_type != SHT_NULL &&
        !within(section.sh_offset, section.sh_size, size))
      return "a section lies past the end of the file (truncated?)";
  }
  return NULL;
}
