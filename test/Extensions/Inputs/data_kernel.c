/*===- data_kernel.c - A "kernel" that is data ---------------------------===*
 *
 * Defines saxpy_kernel as an array, not a function: an object a custom
 * dispatch must refuse at compile time (called, it would run the bytes).
 *
 *===----------------------------------------------------------------------===*/

const unsigned char saxpy_kernel[64] = {0xc3};
