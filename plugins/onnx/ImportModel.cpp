//===- ImportModel.cpp - ONNX ModelProto to the onnx dialect --------------===//
//
// Reads a serialized ModelProto with ONNX's protobuf classes, loads its
// external data, runs ONNX's checker and shape inference, and builds one
// function `@main`: graph inputs become arguments, initializers constants
// (large ones as dense_resource blobs), each node an `onnx.node`, graph
// outputs the returned values. Every refusal names what it refuses.
//
//===----------------------------------------------------------------------===//

#include "CheckModel.h"
#include "FoldShapes.h"
#include "InferNewOps.h"
#include "ONNX.h"
#include "PrepareDowngrade.h"
#include "RecognizeModel.h"
#include "SpecializeInputs.h"
#include "Subgraphs.h"
#include "SymbolicDims.h"
#include "TensorProto.h"
#include "ValidateModel.h"
#include "kiln/Files/FilesRead.h"
#include "kiln/Files/InputFiles.h"

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "onnx/onnx_pb.h"

#include <climits>
#include <deque>
#include <functional>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Initializers larger than this become dense_resource blobs: kept as
/// bytes, never printed element by element.
static constexpr size_t kResourceBytes = 1024;

/// Constants up to this many elements (1-D at most: axes, shapes, scalars)
/// are copied into the models subgraphs are inferred as.
static constexpr int64_t kSmallConstant = 64;

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

namespace {
class ModelImporter {
public:
  ModelImporter(MLIRContext *context, StringRef path,
                const ExternalDataOptions &externalData)
      : context(context), path(path.str()), externalData(externalData),
        builder(context) {}

  OwningOpRef<ModuleOp> import(StringRef bytes,
                               const InputSpecialization &specialization);

private:
  InFlightDiagnostic error() {
    return emitError(FileLineColLoc::get(context, path, 0, 0));
  }
  LogicalResult loadExternalData(onnx::TensorProto &tensor);
  LogicalResult checkOpsets();
  /// `type` as an MLIR type; sequences of tensors only `inGraph` (between
  /// nodes, not as graph inputs or outputs).
  FailureOr<Type> importType(const onnx::TypeProto &type, StringRef what,
                             bool inGraph = false);
  FailureOr<Value> importInitializer(const onnx::TensorProto &tensor);
  FailureOr<Attribute> importAttribute(const onnx::AttributeProto &attribute,
                                       StringRef node);
  LogicalResult importNode(const onnx::NodeProto &node, unsigned index);
  /// Imports `graph`, a subgraph of a node, into `region`: a block whose
  /// arguments are its inputs, its nodes, an onnx.yield of its outputs.
  LogicalResult importSubgraph(Region &region, const onnx::GraphProto &graph,
                               const SubgraphTypes &inferred);
  /// Defines `name` as `value` in the innermost graph being imported.
  void define(StringRef name, Value value);
  void defineType(StringRef name, const onnx::TypeProto *type);
  /// Records `tensor` as the value of `name` for subgraphs' inference
  /// when it is small (at most 1-D, kSmallConstant elements).
  void defineConstant(StringRef name, const onnx::TensorProto &tensor);

  MLIRContext *context;
  std::string path;
  ExternalDataOptions externalData;
  OpBuilder builder;
  onnx::ModelProto model;
  llvm::StringMap<int64_t> opsets;
  /// The model's IR version as written (an upgrade raises it).
  int64_t irVersion = 0;
  llvm::StringMap<Value> values;
  llvm::StringMap<const onnx::TypeProto *> types;
  Value none;
  /// What the names a subgraph defines meant outside it, one entry per
  /// subgraph being imported, restored when it ends: sibling subgraphs (an
  /// If's branches) may use the same names.
  struct Scope {
    std::vector<std::pair<std::string, Value>> values;
    std::vector<std::pair<std::string, const onnx::TypeProto *>> types;
    std::vector<std::pair<std::string, const onnx::TensorProto *>> constants;
    Value none;
  };
  std::vector<Scope> scopes;
  /// The types inferred for subgraphs, owned here.
  std::vector<SubgraphTypes> subgraphTypes;
  /// The types of the main graph's initializers, which subgraphs read.
  std::deque<onnx::TypeProto> initializerTypes;
  /// The small constants subgraphs may read (initializers, the values of
  /// Constant nodes), for their shape inference.
  llvm::StringMap<const onnx::TensorProto *> constants;
};
} // namespace

/// Whether `path`, a buffer identifier, names no file: "<stdin>", a model
/// given as bytes ("<bytes>", "<buffer>").
static bool isInMemory(StringRef path) {
  return path.starts_with("<") && path.ends_with(">");
}

LogicalResult ModelImporter::loadExternalData(onnx::TensorProto &tensor) {
  if (tensor.data_location() != onnx::TensorProto::EXTERNAL)
    return success();
  std::string location;
  uint64_t offset = 0;
  std::optional<uint64_t> length;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    if (entry.key() == "location")
      location = entry.value();
    else if (entry.key() == "offset" || entry.key() == "length") {
      uint64_t value;
      if (StringRef(entry.value()).getAsInteger(10, value))
        return error() << "initializer '" << tensor.name()
                       << "' has external data with a malformed " << entry.key()
                       << " '" << entry.value() << "'";
      (entry.key() == "offset" ? offset : length.emplace()) = value;
    }
  }
  if (location.empty() || llvm::sys::path::is_absolute(location) ||
      StringRef(location).contains(".."))
    return error() << "initializer '" << tensor.name()
                   << "' has external data at '" << location
                   << "': expected a path relative to the model's folder";
  // The folder locations are relative to: the flag's, or the model's. A
  // model read from stdin or memory has none (the current folder would be
  // anybody's).
  std::string folder = externalData.folder;
  if (folder.empty()) {
    if (isInMemory(path))
      return error() << "initializer '" << tensor.name()
                     << "' keeps its data in '" << location
                     << "', but the model was read from " << path
                     << ", not from a file in a folder; import it from its "
                        "file, or name the folder of its data with "
                        "--onnx-external-data-dir",
             failure();
    folder = llvm::sys::path::parent_path(path).str();
    if (folder.empty())
      folder = ".";
  }
  SmallString<256> file(folder);
  llvm::sys::path::append(file, location);
  // Links may not lead out of the folder (to /etc/passwd, say) unless
  // allowed.
  if (!externalData.anywhere) {
    SmallString<256> realFolder, realFile;
    if (!llvm::sys::fs::real_path(folder, realFolder) &&
        !llvm::sys::fs::real_path(file, realFile)) {
      StringRef inside = realFile;
      if (!inside.consume_front(realFolder) ||
          !llvm::sys::path::is_separator(inside.empty() ? '\0' : inside[0]))
        return error() << "initializer '" << tensor.name()
                       << "' keeps its data in '" << file
                       << "', which leads to '" << realFile
                       << "', outside the model's folder '" << realFolder
                       << "'; --onnx-external-data-anywhere allows it",
               failure();
    }
  }
  llvm::Expected<std::string> data = readInputFileRange(
      file, ("the external data of initializer '" + tensor.name() + "'"),
      offset, length);
  if (!data)
    return error() << llvm::toString(data.takeError()), failure();
  noteFileRead(context, file,
               "the external data of initializer '" + tensor.name() + "'");
  tensor.set_raw_data(std::move(*data));
  tensor.clear_external_data();
  tensor.set_data_location(onnx::TensorProto::DEFAULT);
  return success();
}

LogicalResult ModelImporter::checkOpsets() {
  for (const onnx::OperatorSetIdProto &opset : model.opset_import()) {
    std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
    // Which of two opsets of one domain the model means cannot be known
    // (the last silently won, and ONNX's converter then failed on it).
    if (auto [it, inserted] = opsets.insert({domain, opset.version()});
        !inserted)
      return error() << "the model imports the "
                     << (domain.empty() ? std::string("default ONNX domain")
                                        : "domain '" + domain + "'")
                     << " twice, at opsets " << it->second << " and "
                     << opset.version() << "; a domain is imported once";
  }
  // Every node, those of subgraphs too.
  SmallVector<const onnx::NodeProto *> nodes;
  std::function<void(const onnx::GraphProto &)> collect =
      [&](const onnx::GraphProto &graph) {
        for (const onnx::NodeProto &node : graph.node()) {
          nodes.push_back(&node);
          for (const onnx::AttributeProto &attribute : node.attribute()) {
            if (attribute.has_g())
              collect(attribute.g());
            for (const onnx::GraphProto &nested : attribute.graphs())
              collect(nested);
          }
        }
      };
  collect(model.graph());
  for (const onnx::NodeProto *nodePointer : nodes) {
    const onnx::NodeProto &node = *nodePointer;
    StringRef domain = node.domain();
    if (domain == "ai.onnx")
      domain = "";
    if (domain != "" && domain != kTrainingDomain)
      return error() << "node '" << node.name() << "' (" << node.op_type()
                     << ") is in domain '" << domain
                     << "', which Kiln's importer does not read (it reads "
                        "the default domain, ai.onnx, and "
                     << kTrainingDomain << ")";
    if (!opsets.count(domain))
      return error() << "node '" << node.name() << "' (" << node.op_type()
                     << ") is in domain '"
                     << (domain.empty() ? StringRef("ai.onnx") : domain)
                     << "', of which the model imports no opset";
  }
  if (auto training = opsets.find(kTrainingDomain);
      training != opsets.end() && training->second != kTrainingOpset)
    return error() << "the model imports opset " << training->second
                   << " of domain '" << kTrainingDomain
                   << "'; Kiln reads opset " << kTrainingOpset;
  auto it = opsets.find("");
  // A model of training ops alone: the constants the importer makes of its
  // initializers are default-domain nodes of Kiln's opset.
  if (it == opsets.end())
    it = opsets.insert({"", kOpset}).first;
  if (it->second > kNewestOpset)
    return error() << "the model uses opset " << it->second
                   << " of the default ONNX domain, newer than the newest "
                      "Kiln reads ("
                   << kNewestOpset << "); export it at opset " << kNewestOpset
                   << " or older";
  if (it->second < 1)
    return error() << "the model imports opset " << it->second
                   << " of the default ONNX domain, which does not exist";
  // Scan-8 has a batch axis that ONNX's converter drops (changing the
  // model's inputs), and sequence lengths.
  if (it->second < 9)
    for (const onnx::NodeProto *node : nodes)
      if (node->op_type() == "Scan" &&
          (node->domain().empty() || node->domain() == "ai.onnx"))
        return error() << (node->name().empty()
                               ? std::string("a Scan node (")
                               : "node '" + node->name() + "' (Scan, ")
                       << "opset " << it->second
                       << "): Kiln reads Scan from opset 9 on; Scan-8, with "
                          "a batch axis and sequence lengths, is not "
                          "supported (export the model at opset 9 or newer)";
  return success();
}

FailureOr<Type> ModelImporter::importType(const onnx::TypeProto &type,
                                          StringRef what, bool inGraph) {
  // Sequences of tensors inside the graph; kiln-onnx-eliminate-sequences
  // replaces them by their elements.
  if (inGraph && type.has_sequence_type() &&
      type.sequence_type().elem_type().has_tensor_type()) {
    FailureOr<Type> element =
        importType(type.sequence_type().elem_type(), what, false);
    if (failed(element))
      return failure();
    return Type(SequenceType::get(context, cast<TensorType>(*element)));
  }
  if (!type.has_tensor_type())
    return error() << what
                   << (inGraph ? " is not a tensor or a sequence of tensors "
                                 "(maps and optionals are not supported)"
                               : " is not a tensor (sequences, maps and "
                                 "optionals are not supported)"),
           failure();
  const onnx::TypeProto::Tensor &tensor = type.tensor_type();
  FailureOr<Type> element = getElementType(context, tensor.elem_type());
  if (failed(element))
    return error() << what << " has element type "
                   << getDataTypeName(tensor.elem_type())
                   << ", which Kiln does not support",
           failure();
  if (!tensor.has_shape())
    return Type(UnrankedTensorType::get(*element));
  SmallVector<int64_t> shape;
  for (const onnx::TensorShapeProto::Dimension &dim : tensor.shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return Type(RankedTensorType::get(shape, *element));
}

FailureOr<Value>
ModelImporter::importInitializer(const onnx::TensorProto &tensor) {
  FailureOr<ElementsAttr> value =
      importTensor(context, tensor, kResourceBytes, [&] { return error(); });
  if (failed(value))
    return failure();
  Location loc = NameLoc::get(builder.getStringAttr(tensor.name()),
                              FileLineColLoc::get(context, path, 0, 0));
  // An ONNX Constant node: the conversion gives it its signless type.
  NamedAttribute attribute(builder.getStringAttr("value"), *value);
  return NodeOp::create(builder, loc, TypeRange{value->getType()}, ValueRange{},
                        "Constant", "", opsets.lookup(""),
                        builder.getDictionaryAttr(attribute),
                        /*graph_attrs=*/nullptr, /*bodiesCount=*/0)
      .getResult(0);
}

FailureOr<Attribute>
ModelImporter::importAttribute(const onnx::AttributeProto &attribute,
                               StringRef node) {
  auto fail = [&](StringRef why) -> FailureOr<Attribute> {
    error() << "node '" << node << "': attribute '" << attribute.name() << "' "
            << why;
    return failure();
  };
  switch (attribute.type()) {
  case onnx::AttributeProto::INT:
    return Attribute(builder.getI64IntegerAttr(attribute.i()));
  case onnx::AttributeProto::FLOAT:
    return Attribute(builder.getF32FloatAttr(attribute.f()));
  case onnx::AttributeProto::STRING:
    return Attribute(builder.getStringAttr(attribute.s()));
  case onnx::AttributeProto::INTS: {
    SmallVector<Attribute> list;
    for (int64_t value : attribute.ints())
      list.push_back(builder.getI64IntegerAttr(value));
    return Attribute(builder.getArrayAttr(list));
  }
  case onnx::AttributeProto::FLOATS: {
    SmallVector<Attribute> list;
    for (float value : attribute.floats())
      list.push_back(builder.getF32FloatAttr(value));
    return Attribute(builder.getArrayAttr(list));
  }
  case onnx::AttributeProto::STRINGS: {
    SmallVector<Attribute> list;
    for (const std::string &value : attribute.strings())
      list.push_back(builder.getStringAttr(value));
    return Attribute(builder.getArrayAttr(list));
  }
  case onnx::AttributeProto::TENSOR: {
    // An unnamed tensor's error names the node that holds it.
    FailureOr<ElementsAttr> value =
        importTensor(context, attribute.t(), kResourceBytes, [&] {
          InFlightDiagnostic diagnostic = error();
          diagnostic << "node '" << node << "': attribute '" << attribute.name()
                     << "': ";
          return diagnostic;
        });
    if (failed(value))
      return failure();
    return Attribute(*value);
  }
  case onnx::AttributeProto::GRAPHS:
    return fail("is a list of graphs, which no op Kiln reads takes");
  default:
    return fail("has a type Kiln's importer does not read (" +
                std::to_string(attribute.type()) + ")");
  }
}

void ModelImporter::define(StringRef name, Value value) {
  if (!scopes.empty())
    scopes.back().values.emplace_back(name.str(), values.lookup(name));
  values[name] = value;
}

void ModelImporter::defineConstant(StringRef name,
                                   const onnx::TensorProto &tensor) {
  if (tensor.dims_size() > 1 ||
      tensor.data_location() == onnx::TensorProto::EXTERNAL)
    return;
  if (tensor.dims_size() == 1 && tensor.dims(0) > kSmallConstant)
    return;
  if (!scopes.empty())
    scopes.back().constants.emplace_back(name.str(), constants.lookup(name));
  constants[name] = &tensor;
}

void ModelImporter::defineType(StringRef name, const onnx::TypeProto *type) {
  if (!scopes.empty())
    scopes.back().types.emplace_back(name.str(), types.lookup(name));
  types[name] = type;
}

LogicalResult ModelImporter::importNode(const onnx::NodeProto &node,
                                        unsigned index) {
  std::string name = node.name().empty()
                         ? node.op_type() + "_" + std::to_string(index)
                         : node.name();
  Location loc = NameLoc::get(builder.getStringAttr(name),
                              FileLineColLoc::get(context, path, 0, 0));
  SmallVector<Value> inputs;
  for (const std::string &input : node.input()) {
    if (input.empty()) {
      if (!none)
        none = NoneOp::create(builder, loc, builder.getNoneType()).getResult();
      inputs.push_back(none);
      continue;
    }
    Value value = values.lookup(input);
    if (!value)
      return error() << "node '" << name << "' (" << node.op_type()
                     << ") reads '" << input
                     << "', which no graph input, initializer or earlier "
                        "node defines";
    inputs.push_back(value);
  }
  // Subgraphs (If's branches, Loop's and Scan's bodies), typed before the
  // node: a loop's body says what its outputs are.
  SmallVector<const onnx::GraphProto *> graphs;
  SmallVector<Attribute> graphNames;
  size_t firstInferred = subgraphTypes.size();
  for (const onnx::AttributeProto &attribute : node.attribute()) {
    if (attribute.type() != onnx::AttributeProto::GRAPH)
      continue;
    auto typeOf = [&](StringRef value) { return types.lookup(value); };
    auto constantOf = [&](StringRef value) { return constants.lookup(value); };
    llvm::Expected<SubgraphTypes> inferred =
        inferSubgraph(model, node, name, attribute, {typeOf, constantOf});
    if (!inferred)
      return error() << llvm::toString(inferred.takeError()), failure();
    subgraphTypes.push_back(std::move(*inferred));
    graphs.push_back(&attribute.g());
    graphNames.push_back(builder.getStringAttr(attribute.name()));
  }
  const std::vector<onnx::TypeProto> *bodyOutputs = nullptr;
  for (size_t i = firstInferred; i < subgraphTypes.size(); ++i)
    if (!subgraphTypes[i].nodeOutputs.empty())
      bodyOutputs = &subgraphTypes[i].nodeOutputs;

  SmallVector<Type> results;
  for (auto [i, output] : llvm::enumerate(node.output())) {
    if (output.empty()) {
      results.push_back(builder.getNoneType());
      continue;
    }
    const onnx::TypeProto *type = bodyOutputs && i < bodyOutputs->size()
                                      ? &(*bodyOutputs)[i]
                                      : types.lookup(output);
    if (!type)
      return error() << "node '" << name << "' (" << node.op_type()
                     << "): ONNX's shape inference gives no type for its "
                        "output '"
                     << output << "'",
             failure();
    FailureOr<Type> imported = importType(
        *type, "output '" + output + "' of node '" + name + "'", true);
    if (failed(imported))
      return failure();
    results.push_back(*imported);
  }
  SmallVector<NamedAttribute> attributes;
  for (const onnx::AttributeProto &attribute : node.attribute()) {
    if (attribute.type() == onnx::AttributeProto::GRAPH)
      continue;
    FailureOr<Attribute> value = importAttribute(attribute, name);
    if (failed(value))
      return failure();
    attributes.emplace_back(builder.getStringAttr(attribute.name()), *value);
  }
  std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
  auto op = NodeOp::create(
      builder, loc, results, inputs, node.op_type(), domain,
      opsets.lookup(domain), builder.getDictionaryAttr(attributes),
      graphs.empty() ? nullptr : builder.getArrayAttr(graphNames),
      graphs.size());
  for (auto [i, graph] : llvm::enumerate(graphs))
    if (failed(importSubgraph(op.getBodies()[i], *graph,
                              subgraphTypes[firstInferred + i])))
      return failure();
  for (auto [output, value] : llvm::zip(node.output(), op.getResults()))
    if (!output.empty())
      define(output, value);
  if (node.op_type() == "Constant" && domain.empty() && node.output_size() == 1)
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == "value" && attribute.has_t())
        defineConstant(node.output(0), attribute.t());
  return success();
}

LogicalResult ModelImporter::importSubgraph(Region &region,
                                            const onnx::GraphProto &graph,
                                            const SubgraphTypes &inferred) {
  OpBuilder::InsertionGuard guard(builder);
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  Block *block = builder.createBlock(&region);
  scopes.emplace_back();
  scopes.back().none = none;
  none = nullptr;
  auto result = [&]() -> LogicalResult {
    for (const auto &entry : inferred.types)
      defineType(entry.getKey(), entry.getValue());
    for (auto [info, type] : llvm::zip(graph.input(), inferred.inputs)) {
      FailureOr<Type> imported =
          importType(*type, "input '" + info.name() + "' of subgraph '" +
                                graph.name() + "'");
      if (failed(imported))
        return failure();
      define(info.name(),
             block->addArgument(
                 *imported,
                 NameLoc::get(builder.getStringAttr(info.name()), fileLoc)));
    }
    for (const onnx::TensorProto &tensor : graph.initializer()) {
      FailureOr<Value> value = importInitializer(tensor);
      if (failed(value))
        return failure();
      define(tensor.name(), *value);
      defineConstant(tensor.name(), tensor);
    }
    for (auto [index, node] : llvm::enumerate(graph.node()))
      if (failed(importNode(node, index)))
        return failure();
    SmallVector<Value> returned;
    for (const onnx::ValueInfoProto &info : graph.output()) {
      Value value = values.lookup(info.name());
      if (!value)
        return error() << "output '" << info.name() << "' of subgraph '"
                       << graph.name()
                       << "' is not produced by any node, initializer or "
                          "input",
               failure();
      returned.push_back(value);
    }
    YieldOp::create(builder, fileLoc, returned);
    return success();
  }();
  // What the names meant outside, restored latest first.
  Scope scope = std::move(scopes.back());
  scopes.pop_back();
  for (auto &[name, value] : llvm::reverse(scope.values))
    values[name] = value;
  for (auto &[name, type] : llvm::reverse(scope.types))
    types[name] = type;
  for (auto &[name, constant] : llvm::reverse(scope.constants))
    constants[name] = constant;
  none = scope.none;
  return result;
}

OwningOpRef<ModuleOp>
ModelImporter::import(StringRef bytes,
                      const InputSpecialization &specialization) {
  if (bytes.size() > INT_MAX)
    return error() << "the model file is over 2 GB, protobuf's limit; save "
                      "large weights as external data",
           nullptr;
  // A repository without Git LFS's objects holds small text pointers in
  // their place.
  if (bytes.starts_with("version https://git-lfs.github.com/spec/")) {
    StringRef size;
    for (StringRef line : llvm::split(bytes, '\n'))
      if (line.consume_front("size "))
        size = line.trim();
    return error() << "not an ONNX model but a Git LFS pointer to one"
                   << (size.empty() ? "" : " of " + size.str() + " bytes")
                   << ": `git lfs pull` in its repository fetches the model",
           nullptr;
  }
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    // Where it stopped, as far as the top-level fields tell.
    if (std::string damage = findModelDamage(bytes); !damage.empty())
      return error() << "not a valid ONNX model: " << damage, nullptr;
    return error() << "not a valid ONNX model: its protobuf does not parse "
                      "inside one of its fields (a corrupted file?)",
           nullptr;
  }
  irVersion = model.ir_version();
  if (failed(checkOpsets()))
    return nullptr;
  // Before ONNX's library sees the graph: what it cannot take.
  if (llvm::Error failure = validateModel(model)) {
    error() << llvm::toString(std::move(failure));
    return nullptr;
  }
  for (onnx::TensorProto &tensor :
       *model.mutable_graph()->mutable_initializer())
    if (failed(loadExternalData(tensor)))
      return nullptr;
  // The sizes the user gives, before anything reads a shape.
  if (llvm::Error failure = specializeInputs(model, specialization)) {
    error() << llvm::toString(std::move(failure));
    return nullptr;
  }
  // Newer opsets, which ONNX 1.12 does not know, in opset 17's forms.
  if (int64_t version = opsets.lookup(""); version > kOpset) {
    if (llvm::Error failure = downgradeToOpset17(model, version)) {
      error() << llvm::toString(std::move(failure));
      return nullptr;
    }
    opsets[""] = kOpset;
    opsets[kNewOpsDomain] = 1;
  }
  // Converters read each op in the form of Kiln's opset; ONNX's version
  // converter brings older models there (it checks them first).
  if (int64_t version = opsets.lookup(""); version < kOpset) {
    if (llvm::Error failure = checkAndUpgrade(model, version, kOpset)) {
      error() << llvm::toString(std::move(failure));
      return nullptr;
    }
    opsets[""] = kOpset;
    // Before IR version 4 every initializer had to be a graph input; the
    // converter adds initializers (Pad's pads) without making them inputs.
    if (model.ir_version() < 4)
      model.set_ir_version(4);
  }
  // Ifs on constants leave only the branch they take.
  foldConstantIfs(model);
  // Then the ops of newer opsets ONNX 1.12 does not know, typed by Kiln.
  if (llvm::Error failure = checkAndInferShapes(model)) {
    error() << llvm::toString(std::move(failure));
    return nullptr;
  }
  if (llvm::Error failure = inferNewOps(model)) {
    error() << llvm::toString(std::move(failure));
    return nullptr;
  }
  // Shapes computed in the graph become constants, and shape inference
  // runs again from those.
  if (foldShapeComputations(model)) {
    model.mutable_graph()->clear_value_info();
    if (llvm::Error failure = checkAndInferShapes(model)) {
      error() << llvm::toString(std::move(failure));
      return nullptr;
    }
    if (llvm::Error failure = inferNewOps(model)) {
      error() << llvm::toString(std::move(failure));
      return nullptr;
    }
  }

  if (llvm::Error failure = completeOutputTypes(model)) {
    error() << llvm::toString(std::move(failure));
    return nullptr;
  }
  const onnx::GraphProto &graph = model.graph();
  // What every value is: graph inputs and outputs, and what inference
  // found for the rest.
  for (const onnx::ValueInfoProto &info : graph.input())
    types[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.value_info())
    types[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.output())
    types[info.name()] = &info.type();
  for (const onnx::TensorProto &tensor : graph.initializer())
    if (!types.count(tensor.name()))
      types[tensor.name()] =
          &initializerTypes.emplace_back(getInitializerType(tensor));

  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  SmallVector<Type> argumentTypes;
  SmallVector<std::string> argumentNames, shadowed;
  SmallVector<const onnx::ValueInfoProto *> argumentInfos;
  for (const onnx::ValueInfoProto &info : graph.input()) {
    // Before IR version 4, initializers are listed among the inputs too.
    // From 4 on, such an input is one a caller may set, the initializer
    // its default: Kiln compiles the default as a constant, which the user
    // must hear of (the input silently left main's signature).
    if (initializers.contains(info.name())) {
      if (irVersion >= 4)
        shadowed.push_back(info.name());
      continue;
    }
    FailureOr<Type> type =
        importType(info.type(), "graph input '" + info.name() + "'");
    if (failed(type))
      return nullptr;
    argumentTypes.push_back(*type);
    argumentNames.push_back(info.name());
    argumentInfos.push_back(&info);
  }
  if (!shadowed.empty()) {
    InFlightDiagnostic warning = emitWarning(fileLoc);
    warning << shadowed.size()
            << (shadowed.size() == 1 ? " graph input has"
                                     : " graph inputs have")
            << " an initializer of the same name (";
    for (auto [i, name] :
         llvm::enumerate(llvm::ArrayRef(shadowed).take_front(3)))
      warning << (i ? ", " : "") << "'" << name << "'";
    if (shadowed.size() > 3)
      warning << ", ...";
    warning << "): Kiln compiles the initializers as constants, so main does "
               "not take them as inputs (ONNX lets a caller override them; "
               "to set one at run time, remove its initializer from the "
               "model)";
  }
  SmallVector<Type> resultTypes;
  for (const onnx::ValueInfoProto &info : graph.output()) {
    FailureOr<Type> type = importType(*types.lookup(info.name()),
                                      "graph output '" + info.name() + "'");
    if (failed(type))
      return nullptr;
    resultTypes.push_back(*type);
  }
  auto func =
      func::FuncOp::create(builder, fileLoc, "main",
                           builder.getFunctionType(argumentTypes, resultTypes));
  Block *body = func.addEntryBlock();
  for (auto [name, argument] : llvm::zip(argumentNames, body->getArguments()))
    values[name] = argument;
  for (unsigned i = 0; i < argumentNames.size(); ++i) {
    func.setArgAttr(i, "onnx.name", builder.getStringAttr(argumentNames[i]));
    // Run-time checks name the input they find wrong by its location.
    body->getArgument(i).setLoc(
        NameLoc::get(builder.getStringAttr(argumentNames[i]), fileLoc));
  }
  for (auto [i, info] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, "onnx.name", builder.getStringAttr(info.name()));

  builder.setInsertionPointToEnd(body);
  checkSymbolicDims(builder, fileLoc, argumentInfos, body->getArguments());
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    FailureOr<Value> value = importInitializer(tensor);
    if (failed(value))
      return nullptr;
    values[tensor.name()] = *value;
    defineConstant(tensor.name(), tensor);
  }
  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(importNode(node, index)))
      return nullptr;
  SmallVector<Value> returned;
  for (auto [info, type] : llvm::zip(graph.output(), resultTypes)) {
    Value value = values.lookup(info.name());
    if (!value)
      return error() << "graph output '" << info.name()
                     << "' is not produced by any node, initializer or "
                        "input",
             nullptr;
    // A loop's output whose type the body left dynamic where the graph
    // declares sizes.
    if (value.getType() != type && isa<RankedTensorType>(type) &&
        tensor::CastOp::areCastCompatible(value.getType(), type))
      value = tensor::CastOp::create(builder, fileLoc, type, value);
    returned.push_back(value);
  }
  func::ReturnOp::create(builder, fileLoc, returned);
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

InputImporter onnx_plugin::getImporter(const ExternalDataOptions &options) {
  InputImporter importer;
  importer.name = "onnx";
  importer.description = "an ONNX model";
  importer.recognizes = looksLikeModel;
  importer.import =
      [options](
          const llvm::MemoryBuffer &input, MLIRContext *context,
          const InputSpecialization &specialization) -> OwningOpRef<ModuleOp> {
    // Kiln's, arith's and tensor's for the checks of symbolic sizes.
    context->loadDialect<ONNXDialect, func::FuncDialect, KilnDialect,
                         arith::ArithDialect, tensor::TensorDialect>();
    return ModelImporter(context, input.getBufferIdentifier(), options)
        .import(input.getBuffer(), specialization);
  };
  return importer;
}
