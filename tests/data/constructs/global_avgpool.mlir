// torchvision's CNN tail: a 1x1 NCHW convolution onto 32x32 (a plane the img2col step leaves as
// it is) with its bias broadcast as the init, a ReLU, and adaptive_avg_pool2d(1): a sum that keeps
// its reduced dims as size 1 (result map (d0, d1, 0, 0)), divided by the plane, then flattened.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#keep = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @global_avgpool(%x: tensor<1x32x32x32xf32>, %w: tensor<48x32x1x1xf32>, %b: tensor<48xf32>) -> tensor<1x48xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %plane = arith.constant 1.024000e+03 : f32
  %e = tensor.empty() : tensor<1x48x32x32xf32>
  %init = linalg.broadcast ins(%b : tensor<48xf32>) outs(%e : tensor<1x48x32x32xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x32x32xf32>, tensor<48x32x1x1xf32>) outs(%init : tensor<1x48x32x32xf32>) -> tensor<1x48x32x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : tensor<1x48x32x32xf32>) outs(%e : tensor<1x48x32x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %gt, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x48x32x32xf32>
  %e1 = tensor.empty() : tensor<1x48x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x48x1x1xf32>) -> tensor<1x48x1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%r : tensor<1x48x32x32xf32>) outs(%f : tensor<1x48x1x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x48x1x1xf32>
  %mean = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<1x48x1x1xf32>) outs(%e1 : tensor<1x48x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %plane : f32
    linalg.yield %d : f32
  } -> tensor<1x48x1x1xf32>
  %flat = tensor.collapse_shape %mean [[0], [1, 2, 3]] : tensor<1x48x1x1xf32> into tensor<1x48xf32>
  return %flat : tensor<1x48xf32>
}
