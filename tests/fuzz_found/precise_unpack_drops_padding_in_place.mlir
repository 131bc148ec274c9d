// Found by benchmarks/fuzz.py (precise, seed 41, example 159): an unpack tile that drops an inner tile's padding (1x43x3 into 1x127) reads 129 bytes and writes 127; check counted (nest of op6, the unpack at line 38) two buffers (319 bytes at 64-byte alignment) where the simulation placed one. An unpack or pack that moves no dim copies in place whichever side is larger.
// schedgen: --memory 259 --fuse-mode max-producers --footprint precise
func.func @fuzz(%a0: tensor<2xi8>, %a1: tensor<127x127xi8>, %a2: tensor<127xi8>, %a3: tensor<127x1xi8>, %a4: tensor<127xi8>) -> (tensor<2xi8>, tensor<2xi8>, tensor<127x127xi8>, tensor<1x127xi8>, tensor<127x43x3xi8>, tensor<3x32x64x3xi8>, tensor<1xi8>, tensor<15xi8>, tensor<3x32x64x3xi8>, tensor<127x1xi8>, tensor<127x1xi8>) {
  %e0 = tensor.empty() : tensor<2xi8>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a0 : tensor<2xi8>) outs(%e0 : tensor<2xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<2xi8>
  %e6 = tensor.empty() : tensor<2xi8>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a0 : tensor<2xi8>) outs(%e6 : tensor<2xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.minsi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<2xi8>
  %e12 = tensor.empty() : tensor<2xi8>
  %v3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v1 : tensor<2xi8>) outs(%e12 : tensor<2xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.subi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<2xi8>
  %e18 = tensor.empty() : tensor<127x127xi8>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a1, %a2 : tensor<127x127xi8>, tensor<127xi8>) outs(%e18 : tensor<127x127xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.addi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<127x127xi8>
  %e24 = tensor.empty() : tensor<127x127xi8>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v6 : tensor<127x127xi8>) outs(%e24 : tensor<127x127xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.maxsi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<127x127xi8>
  %e30 = tensor.empty() : tensor<127x43x3xi8>
  %c31 = arith.constant 0 : i8
  %v8 = linalg.pack %a1 padding_value(%c31 : i8) inner_dims_pos = [1] inner_tiles = [3] into %e30 : tensor<127x127xi8> -> tensor<127x43x3xi8>
  %e33 = tensor.empty() : tensor<127x127xi8>
  %v9 = linalg.unpack %v8 inner_dims_pos = [1] inner_tiles = [3] into %e33 : tensor<127x43x3xi8> -> tensor<127x127xi8>
  %e35 = tensor.empty() : tensor<1x127xi8>
  %v10 = linalg.broadcast ins(%a2 : tensor<127xi8>) outs(%e35 : tensor<1x127xi8>) dimensions = [0]
  %e37 = tensor.empty() : tensor<127x43x3xi8>
  %v11 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v8 : tensor<127x43x3xi8>) outs(%e37 : tensor<127x43x3xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.muli %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<127x43x3xi8>
  %c43 = arith.constant 0 : i8
  %e44 = tensor.empty() : tensor<3x32x64x3xi8>
  %v12 = linalg.fill ins(%c43 : i8) outs(%e44 : tensor<3x32x64x3xi8>) -> tensor<3x32x64x3xi8>
  %e46 = tensor.empty() : tensor<3x32x64x3xi8>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v12, %v12 : tensor<3x32x64x3xi8>, tensor<3x32x64x3xi8>) outs(%e46 : tensor<3x32x64x3xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.addi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<3x32x64x3xi8>
  %c52 = arith.constant 0 : i8
  %e53 = tensor.empty() : tensor<1xi8>
  %v14 = linalg.fill ins(%c52 : i8) outs(%e53 : tensor<1xi8>) -> tensor<1xi8>
  %e55 = tensor.empty() : tensor<127x127xi8>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v9 : tensor<127x127xi8>) outs(%e55 : tensor<127x127xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.addi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<127x127xi8>
  %c61 = arith.constant 1 : i8
  %e62 = tensor.empty() : tensor<15xi8>
  %v16 = linalg.fill ins(%c61 : i8) outs(%e62 : tensor<15xi8>) -> tensor<15xi8>
  %e64 = tensor.empty() : tensor<3x32x64x3xi8>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v12 : tensor<3x32x64x3xi8>) outs(%e64 : tensor<3x32x64x3xi8>) {
  ^bb0(%in0: i8, %out: i8):
    %r = arith.maxsi %in0, %in0 : i8
    linalg.yield %r : i8
  } -> tensor<3x32x64x3xi8>
  %c70 = arith.constant 0 : i8
  %e71 = tensor.empty() : tensor<127x1xi8>
  %v19 = linalg.fill ins(%c70 : i8) outs(%e71 : tensor<127x1xi8>) -> tensor<127x1xi8>
  %v20 = linalg.matmul ins(%v15, %a3 : tensor<127x127xi8>, tensor<127x1xi8>) outs(%v19 : tensor<127x1xi8>) -> tensor<127x1xi8>
  %e74 = tensor.empty() : tensor<127x1xi8>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v19, %a4 : tensor<127x1xi8>, tensor<127xi8>) outs(%e74 : tensor<127x1xi8>) {
  ^bb0(%in0: i8, %in1: i8, %out: i8):
    %r = arith.subi %in0, %in1 : i8
    linalg.yield %r : i8
  } -> tensor<127x1xi8>
  return %v2, %v3, %v7, %v10, %v11, %v13, %v14, %v16, %v17, %v20, %v22 : tensor<2xi8>, tensor<2xi8>, tensor<127x127xi8>, tensor<1x127xi8>, tensor<127x43x3xi8>, tensor<3x32x64x3xi8>, tensor<1xi8>, tensor<15xi8>, tensor<3x32x64x3xi8>, tensor<127x1xi8>, tensor<127x1xi8>
}
