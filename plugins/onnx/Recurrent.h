//===- Recurrent.h - RNN, GRU and LSTM ---------------------------*- C++
//-*-===//
//
// What Recurrent.cpp (a sequence length known when compiling, unrolled)
// and RecurrentLoop.cpp (a dynamic one, a loop over time) share: the
// node's attributes and one step of one direction.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_RECURRENT_H
#define KILN_PLUGINS_ONNX_RECURRENT_H

#include "Window.h"

namespace kiln::onnx_plugin {

/// One recurrent node: its kind and what its attributes say.
struct Recurrent {
  enum Kind { RNN, GRU, LSTM } kind;
  int64_t gates;                              // 1, 3, 4
  int64_t hidden = 0;                         // H
  int64_t directions = 1;                     // 1 or 2
  bool reverse = false;                       // direction "reverse"
  bool batchFirst = false;                    // layout 1
  std::optional<double> clip;                 // cell clip
  bool linearBeforeReset = false;             // GRU
  bool inputForget = false;                   // LSTM
  llvm::SmallVector<std::string> activations; // per direction: f, g(, h)

  /// The activations of direction `d`.
  llvm::ArrayRef<std::string> directionActivations(int64_t d) const {
    size_t each = activations.size() / directions;
    return llvm::ArrayRef<std::string>(activations).slice(d * each, each);
  }
  /// Whether direction `d` runs from the last step to the first.
  bool isBackward(int64_t d) const { return reverse || d == 1; }
};

/// Reads the attributes; an error for what is not supported.
mlir::FailureOr<Recurrent> readRecurrent(NodeConverter &node);

/// A direction's state between steps: hidden (and cell), [B, H].
struct StepState {
  mlir::Value h, c;
};

/// What a step of one direction reads besides its input.
struct StepWeights {
  mlir::Value recurrent;     // R [gates H, H]
  mlir::Value recurrentBias; // Rb [1, gates H], or null
  mlir::Value peepholes;     // P [1, 3 H], or null (LSTM)
};

/// Direction `d`'s weights: W [gates H, I], Wb [1, gates H] (null without
/// B), and what each step reads.
struct DirectionWeights {
  mlir::Value input, inputBias;
  StepWeights step;
};
DirectionWeights sliceDirectionWeights(NodeConverter &node, const Recurrent &r,
                                       int64_t d, int64_t width);

/// The input projection X W^T + Wb of `x` ([B, I], or [T, B, I] for every
/// step at once).
mlir::FailureOr<mlir::Value> projectInputs(NodeConverter &node, mlir::Value x,
                                           const DirectionWeights &weights);

/// `x` + `y` elementwise, `y` broadcast to `x`'s type.
mlir::Value addBroadcast(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                         mlir::Value y);

/// One step of direction `d`: from the step's input projection `inputs`
/// ([B, gates H]: X W^T + Wb) and `state`, the next state and in
/// `output` what Y gets. With `lengths` ([B, 1] i32), batch entries whose
/// length is at most `t` (a 0-d i32 tensor) keep their state and give
/// zeros.
mlir::FailureOr<StepState>
buildStep(NodeConverter &node, const Recurrent &r, int64_t d,
          mlir::Value inputs, StepState state, const StepWeights &weights,
          mlir::Value lengths, mlir::Value t, mlir::Value &output);

/// `t` (index or i32) as the 0-d i32 tensor buildStep compares lengths
/// with.
mlir::Value stepTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value t);

/// A static slice of `value` at `offsets` of `sizes`, with unit dims where
/// `kept` lists the result's shape.
mlir::Value sliceStatic(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value value, llvm::ArrayRef<int64_t> offsets,
                        llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> kept);

/// `x` [B, K] times the transpose of `w` [N, K].
mlir::FailureOr<mlir::Value> timesTransposed(NodeConverter &node, mlir::Value x,
                                             mlir::Value w);

/// The last states of each direction stacked as Y_h or Y_c:
/// [directions, B, H], or [B, directions, H] batch first.
mlir::Value stackDirections(mlir::OpBuilder &b, mlir::Location loc,
                            const Recurrent &r,
                            llvm::ArrayRef<mlir::Value> states);

/// Appends the node's outputs: Y, then Y_h and Y_c stacked from the
/// directions' last states (a null value for each the node leaves out).
void pushRecurrentResults(NodeConverter &node, const Recurrent &r,
                          mlir::Value y, llvm::ArrayRef<mlir::Value> lastH,
                          llvm::ArrayRef<mlir::Value> lastC,
                          llvm::SmallVectorImpl<mlir::Value> &results);

/// The recurrent node over a sequence whose length is known only at run
/// time, as a loop over time (RecurrentLoop.cpp).
mlir::LogicalResult
convertRecurrentLoop(NodeConverter &node, const Recurrent &r,
                     llvm::SmallVectorImpl<mlir::Value> &results);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_RECURRENT_H
