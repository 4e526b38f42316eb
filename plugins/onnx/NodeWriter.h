//===- NodeWriter.h - ONNX nodes written in place of one --------*- C++ -*-===//
//
// See NodeWriter.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_NODEWRITER_H
#define KILN_PLUGINS_ONNX_NODEWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

namespace kiln::onnx_plugin {

/// Writes the nodes that compute what one node `from` computes, appending
/// them to a graph's node list under names no other value or node of the
/// model has (kept in `names`, which the writer extends).
class NodeWriter {
public:
  using NodeList = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

  NodeWriter(llvm::StringSet<> &names, NodeList &out,
             const onnx::NodeProto &from)
      : names(names), out(out), from(from) {}

  /// A new node of `type` reading `inputs`; its one output is `output`, or
  /// a fresh name when empty.
  std::string add(llvm::StringRef type, std::vector<std::string> inputs,
                  std::string output = "");
  /// The node written last, to give it attributes.
  onnx::NodeProto &last() { return *out.rbegin(); }

  /// A Constant of INT64 `values`: 1-D, or a scalar when `scalar`.
  std::string ints(llvm::ArrayRef<int64_t> values, bool scalar = false);
  /// A Constant of `values` with `dims` (a scalar when empty) in `like`'s
  /// element type (FLOAT, then CastLike): the ops written compute in
  /// their input's type.
  std::string floats(const std::string &like, llvm::ArrayRef<float> values,
                     llvm::ArrayRef<int64_t> dims = {});
  /// Dim `index` of the 1-D `shape` as a 1-element tensor (for Concat).
  std::string dim(const std::string &shape, int64_t index);
  /// Element `index` of the 1-D `values` as a scalar (for Range).
  std::string element(const std::string &values, int64_t index);
  /// `values` joined along axis 0.
  std::string concat(std::vector<std::string> values);

  /// An error naming `from`, at default-domain opset `version`.
  llvm::Error fail(int64_t version, const llvm::Twine &why) const;

private:
  std::string freshName(const std::string &base);
  /// A Constant node holding `tensor`.
  std::string constant(onnx::TensorProto tensor);

  llvm::StringSet<> &names;
  NodeList &out;
  const onnx::NodeProto &from;
};

/// Whether `node` has input `index` (present and not "").
bool hasInput(const onnx::NodeProto &node, int index);
/// `node`'s attribute `name`, or null.
onnx::AttributeProto *findAttribute(onnx::NodeProto &node,
                                    llvm::StringRef name);
void removeAttribute(onnx::NodeProto &node, llvm::StringRef name);
int64_t getIntAttribute(onnx::NodeProto &node, llvm::StringRef name,
                        int64_t fallback);
/// The INTS attribute `name` of `node`, or `fallback` when absent.
std::vector<int64_t> getIntsAttribute(onnx::NodeProto &node,
                                      llvm::StringRef name,
                                      std::vector<int64_t> fallback);
/// The STRING attribute `name` of `node`, or `fallback` when absent.
std::string getStringAttribute(onnx::NodeProto &node, llvm::StringRef name,
                               llvm::StringRef fallback);
void setInt(onnx::NodeProto &node, llvm::StringRef name, int64_t value);
void setInts(onnx::NodeProto &node, llvm::StringRef name,
             llvm::ArrayRef<int64_t> values);
void setString(onnx::NodeProto &node, llvm::StringRef name,
               llvm::StringRef value);
void setTensor(onnx::NodeProto &node, llvm::StringRef name,
               onnx::TensorProto tensor);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_NODEWRITER_H
