# tut_gpu(<test name> <step target> <args...>): runs on the GPU and verifies; skipped (77) without one.
tut_gpu(step01_default   step01_naive)
tut_gpu(step01_seed000   step01_naive --m 256 --n 128 --k 32 --thread 17 --block 1,0)
tut_gpu(step01_square    step01_naive --m 512 --n 512 --k 512)
tut_gpu(step01_tall      step01_naive --m 1024 --n 128 --k 8)
tut_gpu(step01_wide      step01_naive --m 128 --n 1024 --k 96)
tut_gpu(step01_deep_k    step01_naive --m 128 --n 256 --k 4096)
tut_gpu(step01_ones      step01_naive --m 384 --n 256 --k 64 --init ones)
tut_gpu(step01_1024      step01_naive --m 1024 --n 1024 --k 1024)
