// Data tiling as IREE and the CPU backends do it: pack A and B into tiles, a matmul on the
// packed layout (linalg.mmt4d), unpack the result.
func.func @pack_unpack(%a: tensor<256x512xf32>, %b: tensor<512x128xf32>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<32x128x8x4xf32>
  %pa = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %ea : tensor<256x512xf32> -> tensor<32x128x8x4xf32>
  %eb = tensor.empty() : tensor<8x128x16x4xf32>
  %pb = linalg.pack %b outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [16, 4] into %eb : tensor<512x128xf32> -> tensor<8x128x16x4xf32>
  %ec = tensor.empty() : tensor<32x8x8x16xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<32x8x8x16xf32>) -> tensor<32x8x8x16xf32>
  %c = linalg.mmt4d ins(%pa, %pb : tensor<32x128x8x4xf32>, tensor<8x128x16x4xf32>) outs(%fc : tensor<32x8x8x16xf32>) -> tensor<32x8x8x16xf32>
  %e = tensor.empty() : tensor<256x128xf32>
  %u = linalg.unpack %c inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e : tensor<32x8x8x16xf32> -> tensor<256x128xf32>
  return %u : tensor<256x128xf32>
}
