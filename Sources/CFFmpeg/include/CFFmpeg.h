// FFmpeg for the decoder and encoder adapters, loaded on first use rather than at process start.
//
// Debian's FFmpeg pulls in about 130 shared libraries; linking it directly made every start of
// decibar (even `live`, which never decodes a file) pay ~45 ms in the dynamic loader. Instead the
// functions Decibar uses are reached through pointers that decibar_ffmpeg_load() fills with
// dlopen/dlsym, and `play` starts that load on a thread of its own while the window opens.
#ifndef DECIBAR_CFFMPEG_H
#define DECIBAR_CFFMPEG_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>

// Function-like macros do not import into Swift.
static inline int decibar_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int decibar_averror_eof(void) { return AVERROR_EOF; }
static inline int decibar_averror(int code) { return AVERROR(code); }
static inline int decibar_averror_exit(void) { return AVERROR_EXIT; }

#define DECIBAR_FFMPEG_FUNCTIONS(X) \
    X(avutil, av_channel_layout_compare) X(avutil, av_channel_layout_copy) \
    X(avutil, av_channel_layout_default) X(avutil, av_channel_layout_uninit) \
    X(avutil, av_channel_layout_channel_from_index) \
    X(avutil, av_frame_alloc) X(avutil, av_frame_free) X(avutil, av_frame_unref) \
    X(avutil, av_log_set_level) X(avutil, av_rescale_q) X(avutil, av_strerror) \
    X(avutil, av_malloc) X(avutil, av_free) X(avutil, av_max_alloc) X(avutil, av_dict_get) \
    X(avutil, av_frame_get_buffer) X(avutil, av_frame_make_writable) X(avutil, av_dict_set) X(avutil, av_dict_free) \
    X(avcodec, avcodec_find_encoder_by_name) X(avcodec, avcodec_send_frame) X(avcodec, avcodec_receive_packet) \
    X(avcodec, avcodec_parameters_from_context) X(avcodec, av_packet_rescale_ts) \
    X(avformat, avformat_alloc_output_context2) X(avformat, avformat_new_stream) X(avformat, avformat_write_header) \
    X(avformat, av_interleaved_write_frame) X(avformat, av_write_trailer) X(avformat, avformat_free_context) \
    X(avformat, avio_open) X(avformat, avio_closep) \
    X(avcodec, av_packet_alloc) X(avcodec, av_packet_free) X(avcodec, av_packet_unref) \
    X(avcodec, avcodec_alloc_context3) X(avcodec, avcodec_find_decoder) X(avcodec, avcodec_flush_buffers) \
    X(avcodec, avcodec_free_context) X(avcodec, avcodec_get_name) X(avcodec, avcodec_open2) \
    X(avcodec, avcodec_parameters_to_context) X(avcodec, avcodec_receive_frame) X(avcodec, avcodec_send_packet) \
    X(avformat, av_find_best_stream) X(avformat, av_read_frame) X(avformat, av_seek_frame) \
    X(avformat, avformat_close_input) X(avformat, avformat_find_stream_info) X(avformat, avformat_open_input) \
    X(avformat, avio_seek) X(avformat, avformat_alloc_context) X(avformat, avio_alloc_context) \
    X(avformat, avio_context_free) \
    X(swresample, swr_alloc_set_opts2) X(swresample, swr_convert) X(swresample, swr_free) \
    X(swresample, swr_get_out_samples) X(swresample, swr_init) X(swresample, swr_set_matrix) \
    X(swscale, sws_getCachedContext) X(swscale, sws_scale) X(swscale, sws_freeContext)

// One member per function, named as the function, of exactly its type.
typedef struct {
#define DECIBAR_FFMPEG_MEMBER(library, name) __typeof__(name) *name;
    DECIBAR_FFMPEG_FUNCTIONS(DECIBAR_FFMPEG_MEMBER)
#undef DECIBAR_FFMPEG_MEMBER
} DecibarFFmpeg;

// Loads the libraries and fills the table; safe to call from any thread, any number of times
// (the work happens once). Returns the table, or NULL with a one-line reason in `message`.
const DecibarFFmpeg *decibar_ffmpeg_load(char *message, int size);

#endif
