// A payload that already has a loop around linalg ops (hand-tiled).
func.func @existing_loop(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c64 step %c8 iter_args(%acc = %x) -> (tensor<64x256xf32>) {
    %s = tensor.extract_slice %acc[%i, 0] [8, 256] [1, 1] : tensor<64x256xf32> to tensor<8x256xf32>
    %e = tensor.empty() : tensor<8x256xf32>
    %a = linalg.add ins(%s, %s : tensor<8x256xf32>, tensor<8x256xf32>) outs(%e : tensor<8x256xf32>) -> tensor<8x256xf32>
    %u = tensor.insert_slice %a into %acc[%i, 0] [8, 256] [1, 1] : tensor<8x256xf32> into tensor<64x256xf32>
    scf.yield %u : tensor<64x256xf32>
  }
  return %r : tensor<64x256xf32>
}
