func.func @fuzz(%a0: tensor<219xbf16>, %a1: tensor<15x256xbf16>, %a2: tensor<256x15xbf16>, %a3: tensor<14x11x15x2xbf16>, %a4: tensor<1x2x2x42xbf16>) -> (tensor<15x15xbf16>, tensor<15x15xbf16>, tensor<15x256xbf16>, tensor<1x1x15xbf16>, tensor<1x1x15xbf16>, tensor<14x6x7x42xbf16>, tensor<14x6x7x42xbf16>, tensor<15x32x8xbf16>) {
  %c0 = arith.constant 0.0 : bf16
  %e1 = tensor.empty() : tensor<15x15xbf16>
  %v3 = linalg.fill ins(%c0 : bf16) outs(%e1 : tensor<15x15xbf16>) -> tensor<15x15xbf16>
  %v4 = linalg.matmul ins(%a1, %a2 : tensor<15x256xbf16>, tensor<256x15xbf16>) outs(%v3 : tensor<15x15xbf16>) -> tensor<15x15xbf16>
  %c4 = arith.constant 0.0 : bf16
  %e5 = tensor.empty() : tensor<15x15xbf16>
  %v5 = linalg.fill ins(%c4 : bf16) outs(%e5 : tensor<15x15xbf16>) -> tensor<15x15xbf16>
  %v6 = linalg.matmul ins(%v4, %v4 : tensor<15x15xbf16>, tensor<15x15xbf16>) outs(%v5 : tensor<15x15xbf16>) -> tensor<15x15xbf16>
  %e8 = tensor.empty() : tensor<15x256xbf16>
  %v7 = linalg.transpose ins(%a2 : tensor<256x15xbf16>) outs(%e8 : tensor<15x256xbf16>) permutation = [1, 0]
  %e10 = tensor.empty() : tensor<15x145x15xbf16>
  %v8 = linalg.broadcast ins(%v6 : tensor<15x15xbf16>) outs(%e10 : tensor<15x145x15xbf16>) dimensions = [1]
  %c12 = arith.constant 0.0 : bf16
  %e13 = tensor.empty() : tensor<1x1x15xbf16>
  %v9 = linalg.fill ins(%c12 : bf16) outs(%e13 : tensor<1x1x15xbf16>) -> tensor<1x1x15xbf16>
  %v10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, 0, d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%v8 : tensor<15x145x15xbf16>) outs(%v9 : tensor<1x1x15xbf16>) {
  ^bb0(%in0: bf16, %out: bf16):
    %r = arith.addf %in0, %out : bf16
    linalg.yield %r : bf16
  } -> tensor<1x1x15xbf16>
  %c20 = arith.constant 0.0 : bf16
  %e21 = tensor.empty() : tensor<14x6x7x42xbf16>
  %v13 = linalg.fill ins(%c20 : bf16) outs(%e21 : tensor<14x6x7x42xbf16>) -> tensor<14x6x7x42xbf16>
  %v14 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%a3, %a4 : tensor<14x11x15x2xbf16>, tensor<1x2x2x42xbf16>) outs(%v13 : tensor<14x6x7x42xbf16>) -> tensor<14x6x7x42xbf16>
  %e24 = tensor.empty() : tensor<15x32x8xbf16>
  %v15 = linalg.pack %a1 inner_dims_pos = [1] inner_tiles = [8] into %e24 : tensor<15x256xbf16> -> tensor<15x32x8xbf16>
  return %v3, %v5, %v7, %v9, %v10, %v13, %v14, %v15 : tensor<15x15xbf16>, tensor<15x15xbf16>, tensor<15x256xbf16>, tensor<1x1x15xbf16>, tensor<1x1x15xbf16>, tensor<14x6x7x42xbf16>, tensor<14x6x7x42xbf16>, tensor<15x32x8xbf16>
}
