// Not MLIR at all.
module {
  this is not a spec
}
