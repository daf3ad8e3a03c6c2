#!/usr/bin/env python3
"""Lists the GPU architectures built into an ELF file (libargx.so, an object, a program)
by reading its .nv_fatbin section directly: no cuobjdump needed.

    tools/fatbin_archs.py FILE                     prints e.g. "sm_75 sm_80 sm_90 compute_90"
    tools/fatbin_archs.py FILE --expect-sass 75,80,90 --expect-ptx 90
                                                    exits 1 unless FILE holds exactly those

Layout read here (as nvcc writes it): the section is a sequence of fat binary containers,
each a 16-byte header (magic 0xBA55ED50, u16 version, u16 header size, u64 size of what
follows), then entries: u16 kind (1 = PTX, 2 = ELF machine code), u16 version, u32 entry
header size, u64 payload size, ..., u32 architecture at offset 28; the next entry follows
the payload.
"""
import argparse
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_ELF = 1, 2


def section(data, name):
    """The bytes of the named section of a little-endian ELF64 file, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian 64-bit ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(i):
        return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)

    names = header(shstrndx)
    for i in range(shnum):
        h = header(i)
        start = names[4] + h[0]
        label = data[start:data.index(b"\0", start)].decode()
        if label == name:
            return data[h[4]:h[4] + h[5]] if h[1] != 8 else b""  # SHT_NOBITS holds nothing
    return None


def entries(fatbin):
    """(kind, arch) of every entry of every container in a .nv_fatbin section."""
    out = []
    at = 0
    while at + 16 <= len(fatbin):
        magic, _version, hsize, size = struct.unpack_from("<IHHQ", fatbin, at)
        if magic != FATBIN_MAGIC:
            at += 8  # containers are 8-byte aligned; skip padding
            continue
        e, end = at + hsize, at + hsize + size
        while e + 32 <= end:
            kind, _v, ehsize, payload = struct.unpack_from("<HHIQ", fatbin, e)
            arch, = struct.unpack_from("<I", fatbin, e + 28)
            if ehsize == 0:
                raise ValueError("malformed fat binary entry at offset %d" % e)
            out.append((kind, arch))
            e += ehsize + payload
        at = end
    return out


def archs(path):
    with open(path, "rb") as f:
        data = f.read()
    fatbin = section(data, ".nv_fatbin")
    if fatbin is None:
        return set(), set()
    sass, ptx = set(), set()
    for kind, arch in entries(fatbin):
        (sass if kind == KIND_ELF else ptx if kind == KIND_PTX else set()).add(arch)
    return sass, ptx


def number_list(text):
    return {int(a) for a in text.split(",") if a}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--expect-sass", help="comma-separated architectures that must have machine code, and no other")
    ap.add_argument("--expect-ptx", help="comma-separated architectures that must have PTX, and no other")
    a = ap.parse_args()
    sass, ptx = archs(a.file)
    found = " ".join(["sm_%d" % s for s in sorted(sass)] + ["compute_%d" % p for p in sorted(ptx)])
    print(found or "no GPU code")
    bad = []
    if a.expect_sass is not None and sass != number_list(a.expect_sass):
        bad.append("machine code for %s, expected %s" % (sorted(sass), sorted(number_list(a.expect_sass))))
    if a.expect_ptx is not None and ptx != number_list(a.expect_ptx):
        bad.append("PTX for %s, expected %s" % (sorted(ptx), sorted(number_list(a.expect_ptx))))
    for b in bad:
        print("%s holds %s" % (a.file, b), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
