// Putting .npy files in place, all or nothing: each file is written in full to a temporary
// file beside its target and flushed, and only then renamed over it; when several files
// are written, the ones already renamed are put back if a later rename fails.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include "detail.hpp"

namespace argx::npy {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void io_error(const std::string& what, int err) {
  throw error(errc::io_failure, what + ": " + std::strerror(err));
}

bool is_special(const struct stat& st) { return !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode); }

// All of `bytes` to fd (short writes and EINTR retried).
void write_all(int fd, const std::vector<unsigned char>& bytes, const std::string& path) {
  const unsigned char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) io_error("cannot write " + path, errno);
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// A new, unique file name beside `target`: ".NAME.argx-PID-N-RANDOM" (hidden, and never a .npy name).
std::string sibling_name(const std::string& target, const char* role) {
  static std::atomic<unsigned> counter{0};
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  const fs::path t(target);
  std::string name = ".";
  name += t.filename().string();
  name += std::string(".argx-") + role + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
          std::to_string(rng() % 1000000);
  return (t.parent_path() / name).string();
}

// One regular file on its way into place.
struct staged {
  std::string target;     // destination(path)
  std::string temp;       // the complete new contents, once written
  std::string backup;     // a hard link to what `target` held, when a rollback may need it
  bool had_target = false;
};

// Writes `bytes` to a new temporary file beside s.target, flushed to disk. The new file gets
// the permissions of the file it replaces, or the usual ones (0666 less the umask).
void write_temporary(staged& s, const std::vector<unsigned char>& bytes, const std::string& path) {
  struct stat old;
  s.had_target = ::stat(s.target.c_str(), &old) == 0;
  // A file we may not write stays as it is, as it would for an in-place write (np.save).
  if (s.had_target && ::access(s.target.c_str(), W_OK) != 0) io_error("cannot write " + path, errno);
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    s.temp = sibling_name(s.target, "tmp");
    fd = ::open(s.temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || attempt == 100)) {
      s.temp.clear();
      io_error("cannot create a file beside " + path, errno);
    }
  }
  try {
    if (s.had_target && ::fchmod(fd, old.st_mode & 07777) != 0) io_error("cannot set the permissions of " + path, errno);
    write_all(fd, bytes, path);
    if (::fsync(fd) != 0) io_error("cannot write " + path, errno);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) io_error("cannot write " + path, errno);
}

// A device or FIFO: nothing there can be lost, so it is written in place.
void write_special(const std::string& path, const std::vector<unsigned char>& bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) io_error("cannot open " + path, errno);
  try {
    write_all(fd, bytes, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) io_error("cannot write " + path, errno);
}

void remove_quietly(const std::string& p) {
  if (!p.empty()) ::unlink(p.c_str());
}

// Renames every temporary into place. If one fails, those already renamed get their old
// contents back (from their backup links) or are removed when there was none.
void commit(std::vector<staged>& files) {
  if (files.size() > 1)
    for (auto& s : files)
      if (s.had_target) {
        s.backup = sibling_name(s.target, "old");
        if (::link(s.target.c_str(), s.backup.c_str()) != 0) s.backup.clear();  // best effort (no hard links here)
      }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (::rename(files[i].temp.c_str(), files[i].target.c_str()) == 0) {
      files[i].temp.clear();
      continue;
    }
    const int err = errno;
    std::string kept;
    for (std::size_t j = 0; j < i; ++j) {
      staged& s = files[j];
      if (!s.had_target) {
        ::unlink(s.target.c_str());
      } else if (!s.backup.empty()) {
        if (::rename(s.backup.c_str(), s.target.c_str()) != 0) kept += "; the previous " + s.target + " is " + s.backup;
        s.backup.clear();  // restored, or the only copy left: never removed
      }
    }
    throw error(errc::io_failure, "cannot replace " + files[i].target + ": " + std::strerror(err) + kept);
  }
}

}  // namespace

std::string destination(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw error(errc::io_failure, "cannot write " + path + ": it is a directory");
    if (is_special(st)) return "";
  }
  // Follow symbolic links by hand: the target may not exist yet.
  fs::path p = path;
  for (int hops = 0;; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec)) || ec) break;
    if (hops == 40) throw error(errc::io_failure, "cannot write " + path + ": too many levels of symbolic links");
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) throw error(errc::io_failure, "cannot write " + path + ": " + ec.message());
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  const fs::path name = p.filename();
  if (name.empty() || name == "." || name == "..")
    throw error(errc::io_failure, "cannot write " + path + ": it names a directory");
  std::error_code ec;
  const fs::path dir = fs::canonical(p.parent_path().empty() ? fs::path(".") : p.parent_path(), ec);
  if (ec) throw error(errc::io_failure, "cannot write " + path + ": " + ec.message());
  if (!fs::is_directory(dir, ec)) throw error(errc::io_failure, "cannot write " + path + ": " + dir.string() + " is not a directory");
  return (dir / name).string();
}

void write(std::span<const output_file> files) {
  std::vector<std::string> targets;
  for (const auto& f : files) {
    targets.push_back(destination(f.path));
    for (std::size_t i = 0; i + 1 < targets.size(); ++i)
      if (!targets.back().empty() && targets[i] == targets.back())
        throw error(errc::bad_argument, "cannot write " + files[i].path + " and " + f.path +
                                            ": they name the same file, which would keep only one of them");
  }
  std::vector<staged> regular;
  try {
    // Every new file complete on disk first; only then anything replaced.
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (targets[i].empty()) continue;
      staged s;
      s.target = targets[i];
      regular.push_back(s);
      write_temporary(regular.back(), serialize(files[i].x, files[i].opt), files[i].path);
    }
    for (std::size_t i = 0; i < files.size(); ++i)
      if (targets[i].empty()) write_special(files[i].path, serialize(files[i].x, files[i].opt));
    commit(regular);
  } catch (...) {
    for (const auto& s : regular) {
      remove_quietly(s.temp);
      remove_quietly(s.backup);
    }
    throw;
  }
  for (const auto& s : regular) remove_quietly(s.backup);
}

}  // namespace argx::npy
