/*
   The ghost exchange of mpiaijtuned's MatMult: the entries of x that the off-diagonal blocks of other
   ranks read go to them, in place of MPIAIJ's VecScatter.

   Why its own: with an MPI that is not CUDA-aware, PETSc's scatter packs on the device, copies to a
   pageable host buffer, sends, copies back and unpacks, all in the product's stream, before and after
   the diagonal block's product; on 2-4 GPUs that staging was as long as the whole local product.
   Here the device path packs with one small kernel ahead of the diagonal block's product, copies to
   pinned host memory on a second stream, sends while the diagonal block runs, and copies what arrives
   into the ghost vector on that second stream, which the off-diagonal block's product waits for.  The
   host waits only for the packed values and for MPI, which host-staged MPI cannot avoid.

   The pattern comes from MPIAIJ's column map (garray, sorted): ghost k is global column garray[k],
   owned by the rank whose column range holds it, so the ghosts arrive from their owners in rank order
   and each message lands in one contiguous piece of the ghost vector.  Both host-staged paths (host and
   device vectors) send the same messages, so ranks may mix them.

   When every rank runs on one node with GPUs that reach each other (NVLink or PCIe peer access), the
   peer path (mpi/cuda/ghostspeer.c) skips host memory: each rank packs on its GPU and the ranks that
   need the values copy them straight from its GPU memory (CUDA IPC), while MPI carries only empty notes
   that order the copies.  The host then never waits for the GPU.  It is chosen for all ranks together
   at set-up (the first product of a pattern, on device vectors everywhere), and a rank given host
   vectors later takes part through its GPU.
*/
#pragma once

#include "../aijtunedimpl.h"

typedef struct _n_AIJTunedGhostsCUDA *AIJTunedGhostsCUDA; /* the device path's buffers (mpi/cuda/) */

typedef struct AIJTunedGhosts_s {
  PetscObjectState nonzerostate; /* of the matrix the pattern was made for (the same on every rank) */
  PetscBool        usable;       /* every rank's column map is sorted: else MPIAIJ's scatter is used */
  PetscBool        peer_asked;   /* -mat_aijtuned_ghost_peer at set-up */
  PetscBool        peer;         /* every rank takes the peer path */
  MPI_Comm         comm;
  PetscMPIInt      tag, tag_read;     /* values (or the peer path's 'packed' notes); the peer path's 'read' notes */
  PetscMPIInt      nto, nfrom;          /* ranks this rank sends to and receives from */
  PetscMPIInt     *to, *from;
  PetscInt        *to_start;            /* nto + 1 offsets into the send buffer */
  PetscInt        *from_start;          /* nfrom + 1 offsets into the ghost vector */
  PetscInt        *send_rows;           /* to_start[nto] local rows of x, in send order */
  PetscInt         nghost;              /* the off-diagonal block's columns */
  MPI_Request     *req;                 /* nfrom receives, then nto sends */
  PetscScalar     *send_host;           /* the host path's send buffer */
  Vec              lvec_host;           /* the host path's ghost vector */
  PetscScalar     *lvec_array;          /* its array, between Begin and End */
  AIJTunedGhostsCUDA cuda;
  PetscBool        edges_found;         /* the peer path's product in parts (mpi/cuda/multparts.c): */
  PetscInt         edge_lo, edge_hi;    /* the diagonal block's rows the off-diagonal block writes lie in [0, edge_lo) and [edge_hi, n) */
  PetscBool        in_parts;            /* the last product ran in parts */
} AIJTunedGhosts;

PETSC_INTERN PetscErrorCode AIJTunedGhostsSetUp(Mat, PetscBool, PetscBool, AIJTunedGhosts **);
PETSC_INTERN PetscErrorCode AIJTunedGhostsDestroy(AIJTunedGhosts **);
PETSC_INTERN PetscErrorCode AIJTunedGhostsPost(AIJTunedGhosts *, PetscScalar *, const PetscScalar *);
PETSC_INTERN PetscErrorCode AIJTunedGhostsBeginHost(AIJTunedGhosts *, Vec);
PETSC_INTERN PetscErrorCode AIJTunedGhostsEndHost(AIJTunedGhosts *, Vec *);

#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN PetscErrorCode AIJTunedGhostsBeginCUDA(AIJTunedGhosts *, Vec);
PETSC_INTERN PetscErrorCode AIJTunedGhostsEndCUDA(AIJTunedGhosts *, Vec *);
PETSC_INTERN PetscErrorCode AIJTunedGhostsCUDAFree(AIJTunedGhosts *);
PETSC_INTERN PetscErrorCode AIJTunedGhostsPeerSetUp(Mat, AIJTunedGhosts *, PetscBool);
PETSC_INTERN PetscErrorCode AIJTunedGhostsReadyPeer(AIJTunedGhosts *);
PETSC_INTERN PetscErrorCode AIJTunedGhostsBeginPeer(AIJTunedGhosts *, Vec, PetscBool);
PETSC_INTERN PetscErrorCode AIJTunedGhostsEndPeer(AIJTunedGhosts *, PetscBool, PetscBool, Vec *);
PETSC_INTERN PetscErrorCode AIJTunedGhostsJoinPeer(AIJTunedGhosts *);
PETSC_INTERN PetscErrorCode MatMPIAIJTunedMultInParts(Mat, AIJTunedGhosts *, Vec, Vec, Vec, PetscBool *);
#endif
