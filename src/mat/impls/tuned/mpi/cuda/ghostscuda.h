/* The device paths of the ghost exchange (ghosts.h): host-staged (ghostscuda.c) and peer copies (ghostspeer.c). */
#pragma once

#include "../ghosts.h"
#include <petscdevice_cuda.h>
#include "aijtkernels.h"

/* What the peer path adds: the other ranks' buffers and events, opened through CUDA IPC. */
typedef struct {
  cudaEvent_t   packed;      /* recorded (interprocess) after this rank packs; the receivers wait for it */
  cudaEvent_t   read;        /* recorded (interprocess) after this rank's copies from the senders; they wait for it */
  const double **from_src;   /* nfrom: where each sender's values for this rank start, in its memory */
  void         **from_base;  /* nfrom: the senders' buffers as opened, to close */
  cudaEvent_t   *from_packed; /* nfrom: the senders' 'packed' */
  cudaEvent_t   *to_read;     /* nto: the receivers' 'read' */
  MPI_Request   *req;         /* nfrom 'packed' notes in, nto out; nto 'read' notes in, nfrom out */
  PetscBool      started;     /* a product has run: its 'read' notes are awaited by the next one */
} AIJTunedGhostsPeer;

struct _n_AIJTunedGhostsCUDA {
  aijt_int    *send_rows; /* device copy of the pattern's rows to send */
  double      *send_dev;  /* the packed values on the device */
  double      *send_buf;  /* host-staged: pinned host memory that MPI sends from */
  double      *recv_buf;  /* host-staged: pinned host memory that MPI receives into */
  Vec          lvec;      /* the ghosts, a CUDA vector */
  cudaStream_t side;
  cudaEvent_t  ready, packed, arrived;
  AIJTunedGhostsPeer *peer; /* NULL: host-staged */
};

PETSC_INTERN PetscErrorCode AIJTunedGhostsCUDACreate(AIJTunedGhosts *, PetscBool);
PETSC_INTERN PetscErrorCode AIJTunedGhostsPeerFree(AIJTunedGhosts *);
