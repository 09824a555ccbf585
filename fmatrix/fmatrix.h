/* fmatrix.h: what fmatrix uses from lib/: file-system specs, loop
 * devices, the child-process runner and the stage with its guardian
 * (fcrash uses them too). */
#ifndef FMATRIX_H
#define FMATRIX_H

#include "fsspec.h"
#include "loopdev.h"
#include "run.h"
#include "stage.h"

#endif
