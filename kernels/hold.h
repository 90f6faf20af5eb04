/*
   Timing the device alone (hold.cu), for the calibration and bench_model.  Launches timed back to back
   between event pairs measure the host's launch rate whenever a launch takes the host longer than the
   device: on the H100 machine a tiny launch cost the host 3.1 to 4.5 us, varying from second to second
   (bench/results/2026-11-22-h100-param-size), so tiny strips timed 4.7 us in one process and 7.2 in the
   next (bench/results/2026-11-22-h100-model-check).  Held, the stream waits behind one spinning kernel
   while the host queues everything; released, the queued launches run back to back and their event
   pairs time the device alone.

   aijt_dev_hold queues the spinning kernel on stream; aijt_dev_release lets it finish.  The kernel gives
   up by itself after about a second (the host could block in a launch while the queue is full, and then
   never release it); aijt_dev_hold_timed_out, after the stream has been waited for, says whether the last
   hold did, and the times taken behind it were then host-paced.  Queue at most AIJT_HOLD_MAX_LAUNCHES
   launches behind one hold, and wait for the stream before the next hold: one hold at a time per
   process (a second one would reset the flag the first is still spinning on).  Not for the product's
   path.
*/
#pragma once

#include <cuda_runtime.h>

#define AIJT_HOLD_MAX_LAUNCHES 64 /* and two events each: well inside the launch queue */

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t aijt_dev_hold(cudaStream_t stream);
void        aijt_dev_release(void);
int         aijt_dev_hold_timed_out(void);

#ifdef __cplusplus
}
#endif
