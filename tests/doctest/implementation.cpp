// doctest's implementation, compiled once and linked into every test program (it is the
// slowest part of a test build to compile; each program's own files include the header only).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
