// Foreign exceptions (the C++ runtime's, oneTBB's) turned into argx::error, so that no
// public entry point lets another type escape.
#include <cxxabi.h>

#include <new>
#include <stdexcept>

#include <argx/error.hpp>

namespace argx::detail {

void rethrow_as_error(const char* where) {
  try {
    throw;
  } catch (const error&) {
    throw;
  } catch (abi::__forced_unwind&) {
    throw;  // thread cancellation must finish unwinding
  } catch (const std::bad_alloc&) {
    throw error(errc::out_of_memory, std::string(where) + ": host memory is exhausted");
  } catch (const std::length_error& e) {
    // A container asked for more elements than it can ever hold.
    throw error(errc::out_of_memory, std::string(where) + ": a buffer larger than host memory can hold (" + e.what() + ")");
  } catch (const std::exception& e) {
    throw error(errc::internal, std::string(where) + ": unexpected " + e.what());
  } catch (...) {
    throw error(errc::internal, std::string(where) + ": an unexpected exception of unknown type");
  }
}

}  // namespace argx::detail
