//===- OptionsBinder.h - Options bound to a session -------------*- C++ -*-===//
//
// Each component declares its options once, in a `bindOptions` of its
// options struct, by binding fields to flag names. A global binder turns
// them into command-line flags of the tool (llvm::cl, parsed and listed by
// --help with the tool's other flags); a local binder keeps them to itself
// and parses a session's own flags into that session's structs, so that
// sessions with different flags coexist and compile at once in one process.
//
//   void MyOptions::bindOptions(OptionsBinder &binder) {
//     binder.category("My component");
//     binder.opt("my-threshold", threshold, llvm::cl::desc("..."));
//     binder.list("my-names", names, llvm::cl::desc("..."),
//                 llvm::cl::CommaSeparated);
//   }
//
// A field's initial value is its default. Supported value types: bool,
// std::string, the integer types and double, and lists of strings.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_OPTIONS_OPTIONSBINDER_H
#define KILN_OPTIONS_OPTIONSBINDER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace kiln {

class OptionsBinder {
public:
  /// Binds to LLVM's command line: for the one session of a tool, whose
  /// bound structs live as long as the process. Binding a name twice is a
  /// fatal error, as for any flag.
  static OptionsBinder global();
  /// Binds options of one session, set by parseArguments only.
  static OptionsBinder local();

  OptionsBinder(OptionsBinder &&) noexcept;
  OptionsBinder &operator=(OptionsBinder &&) noexcept;
  ~OptionsBinder();

  bool isLocal() const;

  /// The --help heading of the options bound after this call.
  void category(llvm::StringRef name);

  /// Binds `value` to --`name`. `mods` are llvm::cl modifiers (desc,
  /// value_desc, Hidden, ...); a local binder ignores all but the
  /// description.
  template <typename T, typename... Mods>
  void opt(llvm::StringRef name, T &value, const Mods &...mods) {
    static_assert(std::is_same_v<T, bool> || std::is_same_v<T, std::string> ||
                      std::is_integral_v<T> || std::is_floating_point_v<T>,
                  "OptionsBinder binds bools, strings, integers and floats");
    if (!isLocal()) {
      addGlobal(std::make_unique<llvm::cl::opt<T, /*ExternalStorage=*/true>>(
          name, llvm::cl::location(value), llvm::cl::init(value), mods...,
          llvm::cl::cat(currentCategory())));
      return;
    }
    addLocal(name, /*isBool=*/std::is_same_v<T, bool>,
             /*commaSeparated=*/false,
             [&value, name = name.str()](llvm::StringRef text) {
               return parseValue(name, text, value);
             });
  }

  /// Binds `values` to --`name`, which may be given several times (and,
  /// with llvm::cl::CommaSeparated, hold several values separated by
  /// commas). What `values` holds when bound is the default, which the
  /// values given replace, in order.
  template <typename... Mods>
  void list(llvm::StringRef name, std::vector<std::string> &values,
            const Mods &...mods) {
    auto append = [&values, given = false](llvm::StringRef value) mutable {
      if (!given)
        values.clear();
      given = true;
      values.push_back(value.str());
    };
    if (!isLocal()) {
      auto option = std::make_unique<llvm::cl::list<std::string>>(
          name, mods..., llvm::cl::cat(currentCategory()));
      option->setCallback(
          [append](const std::string &value) mutable { append(value); });
      addGlobal(std::move(option));
      return;
    }
    addLocal(name, /*isBool=*/false, (isCommaSeparated(mods) || ...),
             [append](llvm::StringRef text) mutable {
               append(text);
               return llvm::Error::success();
             });
  }

  /// Parses flags of the usual forms (`--name=value`, `--name value`,
  /// `--flag` for a boolean, one or two dashes) into the values a local
  /// binder bound. Fails, naming the flag, on one nobody bound, a missing
  /// value or a value that does not parse; values set before the failure
  /// stay set.
  llvm::Error parseArguments(llvm::ArrayRef<std::string> args);

private:
  struct Impl;
  explicit OptionsBinder(std::unique_ptr<Impl> impl);

  llvm::cl::OptionCategory &currentCategory();
  void addGlobal(std::unique_ptr<llvm::cl::Option> option);
  void addLocal(llvm::StringRef name, bool isBool, bool commaSeparated,
                std::function<llvm::Error(llvm::StringRef)> set);

  static bool isCommaSeparated(const llvm::cl::MiscFlags &flag) {
    return flag == llvm::cl::CommaSeparated;
  }
  template <typename M> static bool isCommaSeparated(const M &) {
    return false;
  }

  static llvm::Error parseValue(llvm::StringRef name, llvm::StringRef text,
                                bool &value);
  static llvm::Error parseValue(llvm::StringRef name, llvm::StringRef text,
                                std::string &value);
  static llvm::Error parseValue(llvm::StringRef name, llvm::StringRef text,
                                double &value);
  template <typename T>
  static std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>,
                          llvm::Error>
  parseValue(llvm::StringRef name, llvm::StringRef text, T &value) {
    T parsed;
    if (text.getAsInteger(0, parsed))
      return invalidValue(name, text,
                          std::is_signed_v<T> ? "an integer"
                                              : "a non-negative integer");
    value = parsed;
    return llvm::Error::success();
  }
  static llvm::Error invalidValue(llvm::StringRef name, llvm::StringRef text,
                                  llvm::StringRef expected);

  std::unique_ptr<Impl> impl;
};

} // namespace kiln

#endif // KILN_OPTIONS_OPTIONSBINDER_H
