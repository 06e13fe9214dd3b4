#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>

// Function-like macros do not import into Swift.
static inline int decibar_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int decibar_averror_eof(void) { return AVERROR_EOF; }
