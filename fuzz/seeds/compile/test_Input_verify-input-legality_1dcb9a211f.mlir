func.func @vector_input(%v: vector<4xf32>) -> vector<4xf32> {
  %0 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %1 = vector.extract %0[0] : vector<4xf32> from vector<2x4xf32>
  return %1 : vector<4xf32>
}
