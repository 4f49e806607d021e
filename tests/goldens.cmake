# tut_golden(<step target> <golden file name> <args...>): one line per golden output.
# scripts/regen_golden.sh reads this file too.
tut_golden(step01_naive step01_naive --print-only --seed 1)
tut_golden(step01_naive step01_naive_t17_b1 --print-only --seed 1 --thread 17 --block 1,0)
tut_golden(step02_local_tile step02_local_tile --print-only --seed 1)
tut_golden(step02_local_tile step02_local_tile_b11 --print-only --seed 1 --block 1,1 --thread 255)
tut_golden(step03_smem_tiling step03_smem_tiling --print-only --seed 1)
tut_golden(step03_smem_tiling step03_smem_tiling_scalar --print-only --seed 1 --m 200 --n 150 --k 20)
