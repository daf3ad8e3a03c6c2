#include "combine.hpp"

#include <algorithm>
#include <mutex>

#include <argx/error.hpp>

#include "comm.hpp"

namespace argx::distributed::mpi {
namespace {

// The MPI_Op's function: keeps, record by record, the greater (key, position word).
// Which element is carried along does not matter: two records never tie on both words
// (positions of different ranks differ) unless both are the all-zero identity.
template <int Words>
void keep_greater(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::uint64_t*>(in);
  auto* b = static_cast<std::uint64_t*>(inout);
  for (int i = 0; i < *len; ++i, a += Words, b += Words)
    if (a[0] > b[0] || (a[0] == b[0] && a[1] > b[1])) std::copy(a, a + Words, b);
}

// The record datatypes and ops, made once per process after MPI_Init and freed by MPI_Finalize
// (through an attribute of MPI_COMM_SELF, whose delete callbacks MPI_Finalize runs first).
struct handles {
  MPI_Datatype type[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};  // 2 and 3 words
  MPI_Op op[2] = {MPI_OP_NULL, MPI_OP_NULL};
  bool made = false;
};
std::mutex handles_mutex;
handles made_handles;

int release_handles(MPI_Comm, int keyval, void*, void*) {
  std::lock_guard lock(handles_mutex);
  for (int i = 0; i < 2; ++i) {
    if (made_handles.type[i] != MPI_DATATYPE_NULL) MPI_Type_free(&made_handles.type[i]);
    if (made_handles.op[i] != MPI_OP_NULL) MPI_Op_free(&made_handles.op[i]);
  }
  made_handles.made = false;
  MPI_Comm_free_keyval(&keyval);
  return MPI_SUCCESS;
}

const handles& get_handles() {
  std::lock_guard lock(handles_mutex);
  if (made_handles.made) return made_handles;
  handles h;
  check(MPI_Type_contiguous(record_words_without_values, MPI_UINT64_T, &h.type[0]), "MPI_Type_contiguous");
  check(MPI_Type_contiguous(record_words_with_values, MPI_UINT64_T, &h.type[1]), "MPI_Type_contiguous");
  for (auto& t : h.type) check(MPI_Type_commit(&t), "MPI_Type_commit");
  check(MPI_Op_create(&keep_greater<record_words_without_values>, 1, &h.op[0]), "MPI_Op_create");
  check(MPI_Op_create(&keep_greater<record_words_with_values>, 1, &h.op[1]), "MPI_Op_create");
  int keyval = MPI_KEYVAL_INVALID;
  check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &release_handles, &keyval, nullptr), "MPI_Comm_create_keyval");
  check(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr), "MPI_Comm_set_attr");
  h.made = true;
  made_handles = h;
  return made_handles;
}

}  // namespace

void allreduce_records(MPI_Comm comm, std::uint64_t* records, std::int64_t outputs, int words) {
  if (words != record_words_without_values && words != record_words_with_values)
    throw error(errc::bad_argument, "allreduce_records: a record has 2 or 3 words, not " + std::to_string(words));
  const handles& h = get_handles();
  const int which = words == record_words_with_values ? 1 : 0;
  constexpr std::int64_t chunk = std::int64_t(1) << 30;
  for (std::int64_t done = 0; done < outputs; done += chunk) {
    const int n = static_cast<int>(std::min(chunk, outputs - done));
    check(MPI_Allreduce(MPI_IN_PLACE, records + done * words, n, h.type[which], h.op[which], comm), "MPI_Allreduce");
  }
}

}  // namespace argx::distributed::mpi
