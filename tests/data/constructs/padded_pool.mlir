// A torchvision CNN's padding as torch-mlir emits it: a tensor.pad before each convolution and max pool.
// Four pads: the input's (of an argument); a ReLU's (-inf) before a 3x3 stride-2 max pool (nothing else
// reads the ReLU); the pool's before a 3x3 convolution, after a 1x1 convolution read the pool (squeezenet's
// fire module, googlenet's inception branches); and a second ReLU's before a 3x3 convolution whose result
// is added back to that ReLU (resnet's residual: a reader after the pad).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padded_pool(%x: tensor<1x8x16x16xf32>, %w1: tensor<16x8x3x3xf32>, %wa: tensor<16x16x1x1xf32>,
                        %wb: tensor<16x16x3x3xf32>, %wc: tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x16x16xf32> to tensor<1x8x18x18xf32>
  %e1 = tensor.empty() : tensor<1x16x16x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%xp, %w1 : tensor<1x8x18x18xf32>, tensor<16x8x3x3xf32>) outs(%f1 : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x16x16x16xf32>) outs(%e1 : tensor<1x16x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %gt, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x16x16x16xf32>
  %rp = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x16x16x16xf32> to tensor<1x16x18x18xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%rp, %window : tensor<1x16x18x18xf32>, tensor<3x3xf32>) outs(%f2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pool, %wa : tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) outs(%f3 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %pp = tensor.pad %pool low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x8x8xf32> to tensor<1x16x10x10xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%pp, %wb : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%f3 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %ab = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ab : tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %gt, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  %r2p = tensor.pad %r2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x8x8xf32> to tensor<1x16x10x10xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%r2p, %wc : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%f3 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %r2 : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  return %out : tensor<1x16x8x8xf32>
}
