// main() for test programs that need nothing but doctest's own runner.
#include <doctest/doctest.h>

int main(int argc, char** argv) { return doctest::Context(argc, argv).run(); }
