// A copy out of or into a strided view becomes a loop nest of loads and
// stores over the source's dimensions.

// A copy between dense buffers stays: it lowers to memcpy.

// Dynamic shapes and strides too.
func.func @strided(%src: memref<8x16xf32>, %dst: memref<4x4xf32, strided<[16, 1], offset: ?>>) {
  %sub = memref.subview %src[2, 4] [4, 4] [1, 1] : memref<8x16xf32> to memref<4x4xf32, strided<[16, 1], offset: 36>>
  memref.copy %sub, %dst : memref<4x4xf32, strided<[16, 1], offset: 36>> to memref<4x4xf32, strided<[16, 1], offset: ?>>
  return
}
func.func @dense(%src: memref<8x16xf32>, %dst: memref<8x16xf32>) {
  memref.copy %src, %dst : memref<8x16xf32> to memref<8x16xf32>
  return
}
func.func @dynamic(%src: memref<?x?xf32, strided<[?, 1], offset: ?>>, %dst: memref<?x?xf32>) {
  memref.copy %src, %dst : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32>
  return
}
