// HRNet's exchange to a finer branch (timm hrnet_w18_small, as torch-mlir exports it, at 128 channels): a 1x1
// convolution, a batch norm's scale and shift, then a 2x nearest upsampling that reads its input through
// tensor.extract at computed indices. The fuse group runs from the convolution to the upsampling, whose channels
// then map to none of the group's dims: tiled along the batch alone it does not fit cpu-l1, so the group is split.
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @nearest_upsample_after_conv(%x: tensor<1x64x7x7xf32>, %w: tensor<128x64x1x1xf32>, %scale: tensor<128x1x1xf32>,
                                       %shift: tensor<128x1x1xf32>) -> tensor<1x128x14x14xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_2 = arith.constant 2.000000e+00 : f32
  %cst_6 = arith.constant 6.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<1x128x7x7xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%x, %w : tensor<1x64x7x7xf32>, tensor<128x64x1x1xf32>) outs(%f : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
  %scaled = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %scale : tensor<1x128x7x7xf32>, tensor<128x1x1xf32>) outs(%e : tensor<1x128x7x7xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.mulf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<1x128x7x7xf32>
  %shifted = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scaled, %shift : tensor<1x128x7x7xf32>, tensor<128x1x1xf32>) outs(%e : tensor<1x128x7x7xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %0 = arith.addf %in, %s : f32
    linalg.yield %0 : f32
  } -> tensor<1x128x7x7xf32>
  %big = tensor.empty() : tensor<1x128x14x14xf32>
  %up = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%big : tensor<1x128x14x14xf32>) {
  ^bb0(%out: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w2 = linalg.index 3 : index
    %h1 = arith.index_cast %h : index to i64
    %h2 = arith.sitofp %h1 : i64 to f32
    %h3 = arith.divf %h2, %cst_2 : f32
    %h4 = math.floor %h3 : f32
    %h5 = arith.maximumf %h4, %cst : f32
    %h6 = arith.minimumf %h5, %cst_6 : f32
    %h7 = arith.fptosi %h6 : f32 to i64
    %hi = arith.index_cast %h7 : i64 to index
    %w3 = arith.index_cast %w2 : index to i64
    %w4 = arith.sitofp %w3 : i64 to f32
    %w5 = arith.divf %w4, %cst_2 : f32
    %w6 = math.floor %w5 : f32
    %w7 = arith.maximumf %w6, %cst : f32
    %w8 = arith.minimumf %w7, %cst_6 : f32
    %w9 = arith.fptosi %w8 : f32 to i64
    %wi = arith.index_cast %w9 : i64 to index
    %v = tensor.extract %shifted[%c0, %c, %hi, %wi] : tensor<1x128x7x7xf32>
    linalg.yield %v : f32
  } -> tensor<1x128x14x14xf32>
  return %up : tensor<1x128x14x14xf32>
}
