//===- Database.cpp - Every measurement the autotuner made ----------------===//

#include "kiln/Tuner/Database.h"
#include "kiln/Support/ReadFile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;

llvm::json::Value kiln::toJSON(const Measurement &m) {
  llvm::json::Array times;
  for (double time : m.timesMs)
    times.push_back(time);
  llvm::json::Object object{
      {"format", kTuningDatabaseFormat},
      {"key", m.key},
      {"workload", m.workload},
      {"cpu", m.cpu},
      {"features", m.features},
      {"config", m.config},
      {"baseline", m.baseline},
      {"compile", m.compileStatus},
      {"run", m.runStatus},
      {"compile_s", m.compileSeconds},
      {"times_ms", std::move(times)},
      {"median_ms", m.medianMs},
      {"kiln_build", m.buildId},
      {"machine", m.machine},
      {"date", m.date},
  };
  if (!m.error.empty())
    object["error"] = m.error;
  if (!m.worker.empty())
    object["worker"] = m.worker;
  return object;
}

bool kiln::fromJSON(const llvm::json::Value &value, Measurement &m,
                    std::string &why) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object) {
    why = "not a JSON object";
    return false;
  }
  std::optional<int64_t> format = object->getInteger("format");
  if (format != kTuningDatabaseFormat) {
    why = "format " + (format ? std::to_string(*format) : "missing") +
          ", this Kiln reads format " + std::to_string(kTuningDatabaseFormat);
    return false;
  }
  auto string = [&](llvm::StringRef name, std::string &field) {
    std::optional<llvm::StringRef> text = object->getString(name);
    if (text)
      field = text->str();
    return text.has_value();
  };
  for (auto [name, field] :
       std::initializer_list<std::pair<llvm::StringRef, std::string *>>{
           {"key", &m.key},
           {"workload", &m.workload},
           {"cpu", &m.cpu},
           {"features", &m.features},
           {"config", &m.config},
           {"compile", &m.compileStatus},
           {"run", &m.runStatus},
           {"kiln_build", &m.buildId},
           {"machine", &m.machine},
           {"date", &m.date}})
    if (!string(name, *field)) {
      why = "no string \"" + name.str() + "\"";
      return false;
    }
  string("error", m.error);
  string("worker", m.worker);
  m.baseline = object->getBoolean("baseline").value_or(false);
  m.compileSeconds = object->getNumber("compile_s").value_or(0);
  std::optional<double> median = object->getNumber("median_ms");
  const llvm::json::Array *times = object->getArray("times_ms");
  if (!median || !times || *median < 0) {
    why = "no \"median_ms\" and \"times_ms\"";
    return false;
  }
  m.medianMs = *median;
  m.timesMs.clear();
  for (const llvm::json::Value &time : *times) {
    std::optional<double> number = time.getAsNumber();
    if (!number || *number < 0) {
      why = "a time that is not a non-negative number";
      return false;
    }
    m.timesMs.push_back(*number);
  }
  return true;
}

std::vector<BestRecord>
kiln::findBestRecords(const std::vector<Measurement> &measurements) {
  std::vector<BestRecord> records;
  llvm::StringMap<size_t> index;
  for (const Measurement &m : measurements) {
    auto [it, inserted] =
        index.try_emplace(m.key + " " + m.cpu, records.size());
    if (inserted)
      records.emplace_back().first = &m;
    BestRecord &record = records[it->second];
    ++record.count;
    if (!m.succeeded())
      continue;
    if (!record.best || m.medianMs < record.best->medianMs)
      record.best = &m;
    if (m.baseline &&
        (!record.baseline || m.medianMs < record.baseline->medianMs))
      record.baseline = &m;
  }
  return records;
}

/// How deep `line` nests JSON arrays and objects (strings skipped), or
/// more than `limit` once it is past it: llvm::json::parse recurses.
static size_t getNestingDepth(llvm::StringRef line, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < line.size() && deepest <= limit; ++i) {
    char c = line[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

llvm::Expected<TuningDatabase> TuningDatabase::read(const std::string &path,
                                                    bool mustExist) {
  TuningDatabase database;
  struct stat info;
  if (!mustExist && stat(path.c_str(), &info) != 0 && errno == ENOENT)
    return database;
  // A regular file read to its end: a FIFO is refused, not waited on, and
  // a read error (/proc/self/mem) is an error, not the end of the file.
  std::string contents, error;
  if (!readRegularFile(path, contents, error))
    return llvm::createStringError("cannot read the tuning database '" + path +
                                   "': " + error);
  return parse(contents, path);
}

TuningDatabase TuningDatabase::parse(llvm::StringRef contents,
                                     llvm::StringRef name) {
  TuningDatabase database;
  std::string path = name.str();
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(contents).split(lines, '\n');
  // What follows the last newline is a line a writer did not finish.
  bool endsLine = llvm::StringRef(contents).ends_with("\n");
  for (auto [index, line] : llvm::enumerate(lines)) {
    size_t number = index + 1;
    bool complete = endsLine || index + 1 < lines.size();
    if (line.trim().empty())
      continue;
    auto warn = [&](const std::string &why) {
      database.warnings.push_back(path + ":" + std::to_string(number) +
                                  ": skipped: " + why);
    };
    if (!complete) {
      warn("the line is incomplete (no newline: a search stopped while "
           "writing it?)");
      break;
    }
    // A database line nests three levels; JSON nested thousands deep would
    // overflow the parser's stack.
    constexpr size_t kMaxNesting = 32;
    if (getNestingDepth(line, kMaxNesting) > kMaxNesting) {
      warn("not a measurement: JSON nested more than " +
           std::to_string(kMaxNesting) + " levels deep");
      continue;
    }
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    if (!value) {
      warn("not JSON: " + llvm::toString(value.takeError()));
      continue;
    }
    Measurement measurement;
    std::string why;
    if (!fromJSON(*value, measurement, why)) {
      warn(why);
      continue;
    }
    database.measurements.push_back(std::move(measurement));
  }
  return database;
}

llvm::Error TuningDatabase::append(const std::string &path,
                                   const Measurement &measurement) {
  std::string line;
  llvm::raw_string_ostream os(line);
  os << toJSON(measurement) << "\n";
  auto failure = [&](const char *what) {
    return llvm::createStringError("cannot " + std::string(what) +
                                   " the tuning database '" + path +
                                   "': " + std::strerror(errno));
  };
  // O_NONBLOCK: a FIFO at the path must not block the open; it is refused
  // below.
  int fd = ::open(path.c_str(),
                  O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0)
    return failure("open");
  struct stat info;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return llvm::createStringError("cannot append to the tuning database '" +
                                   path + "': it is not a regular file");
  }
  if (flock(fd, LOCK_EX) != 0) {
    ::close(fd);
    return failure("lock");
  }
  // A line cut short by a writer that died ends here, not in ours.
  if (fstat(fd, &info) == 0 && info.st_size > 0) {
    char last = '\n';
    int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (reader >= 0) {
      if (pread(reader, &last, 1, info.st_size - 1) != 1)
        last = '\n';
      ::close(reader);
    }
    if (last != '\n')
      line.insert(line.begin(), '\n');
  }
  const char *data = line.data();
  size_t left = line.size();
  bool ok = true;
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0) {
      ok = false;
      break;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (ok)
    ok = fsync(fd) == 0;
  llvm::Error error = ok ? llvm::Error::success() : failure("write");
  flock(fd, LOCK_UN);
  ::close(fd);
  return error;
}

std::string kiln::getCurrentDate() {
  std::time_t now = std::time(nullptr);
  std::tm utc;
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string kiln::getMachineDescription() {
  char host[256] = "unknown host";
  gethostname(host, sizeof host - 1);
  std::string model = "unknown CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (llvm::StringRef(line).starts_with("model name")) {
      model = llvm::StringRef(line).split(':').second.trim().str();
      break;
    }
  return std::string(host) + " (" + model + ", " +
         std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores)";
}
