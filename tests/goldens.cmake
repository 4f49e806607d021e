# tut_golden(<step target> <golden file name> <args...>): one line per golden output.
# scripts/regen_golden.sh reads this file too.
tut_golden(step01_naive step01_naive --print-only --seed 1)
tut_golden(step01_naive step01_naive_t17_b1 --print-only --seed 1 --thread 17 --block 1,0)
