# tut_gpu(<test name> <step target> <args...>): runs on the GPU and verifies; skipped (77) without one.
tut_gpu(step01_default   step01_naive)
tut_gpu(step01_seed000   step01_naive --m 256 --n 128 --k 32 --thread 17 --block 1,0)
tut_gpu(step01_square    step01_naive --m 512 --n 512 --k 512)
tut_gpu(step01_tall      step01_naive --m 1024 --n 128 --k 8)
tut_gpu(step01_wide      step01_naive --m 128 --n 1024 --k 96)
tut_gpu(step01_deep_k    step01_naive --m 128 --n 256 --k 4096)
tut_gpu(step01_ones      step01_naive --m 384 --n 256 --k 64 --init ones)
tut_gpu(step01_1024      step01_naive --m 1024 --n 1024 --k 1024)

# Steps 02 and 03 run any size: the same shapes for both. Each is MxNxK; what it exercises:
set(TUT_ANY_SIZE_SHAPES
  1x1x1         # the smallest problem: one CTA, one live thread-element
  1x1x1000      # one output, a long K
  7x13x3        # primes, K below every k-tile
  127x131x17    # primes just under/over one tile
  129x128x8     # M one past a tile multiple
  128x129x8     # N one past a tile multiple
  128x128x5     # K smaller than the k-tile
  128x128x37    # K not a multiple of the k-tile
  256x256x256   # whole tiles only (step03: 128-bit copies)
  132x260x36    # M, N multiples of 4 but ragged (step03: 128-bit copies at a ragged edge)
  200x150x20    # step02's default
  200x152x40    # step03's default
  257x385x40
  31x1x999
  1x257x33
  513x511x257
  255x255x255
  997x1009x1013 # primes, 2^30 multiply-adds: still a full check
  1000x999x777
  2048x100x3000
  100x2048x33
  1024x1024x1024
  4096x4096x4096)
foreach(step step02_local_tile step03_smem_tiling)
  foreach(shape ${TUT_ANY_SIZE_SHAPES})
    string(REPLACE "x" ";" mnk ${shape})
    list(GET mnk 0 m)
    list(GET mnk 1 n)
    list(GET mnk 2 k)
    tut_gpu(${step}_${shape} ${step} --m ${m} --n ${n} --k ${k})
  endforeach()
  tut_gpu(${step}_ones ${step} --m 300 --n 200 --k 100 --init ones)
  tut_gpu(${step}_trace_edge ${step} --m 300 --n 200 --k 100 --block 2,1 --thread 255)
endforeach()
