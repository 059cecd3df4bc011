"""Extracts the kernels of a module lowered by imex-gpu-pipeline and checks
them with the CUDA toolkit's own tools.

  check_binaries.py ptx LOWERED.mlir   every `assembly` (PTX) is accepted by
                                       ptxas for its target chip
  check_binaries.py cubin LOWERED.mlir every `bin` is a CUDA ELF file
                                       (machine EM_CUDA, the target chip's
                                       SM version in its flags) with a
                                       .text section per kernel

Prints one line per kernel (`<gpu.binary name>: <kernel names>`) for
FileCheck.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

EM_CUDA = 190

OBJECT = re.compile(
    r'gpu\.binary @(\w+)\s+\[#gpu\.object<#nvvm\.target<[^>]*chip = "(\w+)"[^>]*>'
    r',[^"]*?(assembly|bin) = "((?:[^"\\]|\\.)*)"')


def decode(text):
    """MLIR string escapes (\\XX hex, \\\\ and \\") to bytes."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            nxt = text[i + 1]
            if nxt in '\\"':
                out.append(ord(nxt))
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.extend(c.encode())
            i += 1
    return bytes(out)


def cubin_sections(data):
    """Section names of a 64-bit little-endian CUDA ELF file."""
    assert data[:4] == b"\x7fELF", "not an ELF file"
    assert data[4] == 2 and data[5] == 1, "not a 64-bit little-endian ELF"
    machine, = struct.unpack_from("<H", data, 0x12)
    assert machine == EM_CUDA, f"ELF machine {machine}, not EM_CUDA"
    flags, = struct.unpack_from("<I", data, 0x30)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
    strtab = header(shstrndx)
    names_at = strtab[4]
    names = []
    for i in range(shnum):
        start = names_at + header(i)[0]
        names.append(data[start:data.index(b"\0", start)].decode())
    return flags, names


def find_cuda_tool(name):
    """A CUDA toolkit program on PATH, in $CUDA_HOME/bin or
    /usr/local/cuda/bin (where imex-gpu-pipeline looks for ptxas), or
    None."""
    found = shutil.which(name)
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", name), os.X_OK):
            return os.path.join(root, "bin", name)
    return None


def tool(name):
    return find_cuda_tool(name) or sys.exit(
        f"check_binaries.py: {name} not found")


def main():
    mode, path = sys.argv[1], sys.argv[2]
    text = open(path).read()
    objects = OBJECT.findall(text)
    if not objects:
        sys.exit("check_binaries.py: no gpu.binary with an NVVM object")
    with tempfile.TemporaryDirectory() as tmp:
        for name, chip, kind, payload in objects:
            data = decode(payload)
            if mode == "ptx":
                assert kind == "assembly", f"{name}: {kind}, not PTX"
                ptx = os.path.join(tmp, name + ".ptx")
                with open(ptx, "wb") as f:
                    f.write(data)
                subprocess.run([tool("ptxas"), f"-arch={chip}", ptx, "-o",
                                os.path.join(tmp, name + ".cubin")], check=True)
                kernels = re.findall(rb"\.visible \.entry (\w+)\(", data)
            else:
                assert kind == "bin", f"{name}: {kind}, not a cubin"
                flags, sections = cubin_sections(data)
                sm = int(chip.removeprefix("sm_").rstrip("a"))
                # (The SM version is in e_flags: bits 8-15 in CUDA 13's ELF
                # ABI, bits 0-7 in older ones.)
                assert sm in (flags & 0xFF, (flags >> 8) & 0xFF), \
                    f"{name}: ELF flags {flags:#x} do not name {chip}"
                kernels = [n.removeprefix(".text.").encode()
                           for n in sections if n.startswith(".text.")]
            print(f"{name} {chip}: " +
                  " ".join(k.decode() for k in kernels))


if __name__ == "__main__":
    main()
