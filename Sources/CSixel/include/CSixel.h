// libsixel: sixel images for terminals that show them (decibar term --graphics sixel).
// Opened on first use (see CLoader.h): a machine without it draws in text.
#ifndef DECIBAR_CSIXEL_H
#define DECIBAR_CSIXEL_H

#include <sixel/sixel.h>
#include <CLoader.h>

// Composite macros do not import into Swift.
static inline int decibar_sixel_pixelformat_pal8(void) { return SIXEL_PIXELFORMAT_PAL8; }
static inline int decibar_sixel_pixelformat_rgb888(void) { return SIXEL_PIXELFORMAT_RGB888; }
static inline int decibar_sixel_succeeded(SIXELSTATUS status) { return SIXEL_SUCCEEDED(status); }
// A palette made for each image: median cut, picked by libsixel, no dithering (it would shimmer).
static inline int decibar_sixel_large_auto(void) { return SIXEL_LARGE_AUTO; }
static inline int decibar_sixel_rep_auto(void) { return SIXEL_REP_AUTO; }
static inline int decibar_sixel_quality_auto(void) { return SIXEL_QUALITY_AUTO; }
static inline int decibar_sixel_diffuse_none(void) { return SIXEL_DIFFUSE_NONE; }

#define DECIBAR_SIXEL_FUNCTIONS(X) \
    X(sixel_output_new) X(sixel_output_unref) X(sixel_dither_new) X(sixel_dither_unref) \
    X(sixel_dither_set_palette) X(sixel_dither_set_pixelformat) X(sixel_dither_set_diffusion_type) X(sixel_dither_set_optimize_palette) X(sixel_encode) \
    X(sixel_dither_initialize)

typedef struct { DECIBAR_SIXEL_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarSixel;

const DecibarSixel *decibar_sixel_load(char *message, int size);

#endif
