#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
// Opened on first use (see CLoader.h).
#ifndef DECIBAR_CGL_H
#define DECIBAR_CGL_H

#include <CLoader.h>

#define DECIBAR_GL_FUNCTIONS(X) \
    X(glActiveTexture) X(glAttachShader) X(glBindBuffer) \
    X(glBindFramebuffer) X(glBindRenderbuffer) X(glBindTexture) \
    X(glBindVertexArray) X(glBlendFuncSeparate) X(glBufferData) \
    X(glBufferSubData) X(glCheckFramebufferStatus) X(glClear) \
    X(glClearColor) X(glCompileShader) X(glCreateProgram) \
    X(glCreateShader) X(glDeleteBuffers) X(glDeleteFramebuffers) \
    X(glDeleteProgram) X(glDeleteRenderbuffers) X(glDeleteShader) \
    X(glDeleteTextures) X(glDeleteVertexArrays) X(glDisable) \
    X(glDrawArrays) X(glDrawArraysInstanced) X(glEnable) \
    X(glEnableVertexAttribArray) X(glFinish) X(glFramebufferRenderbuffer) \
    X(glGenBuffers) X(glGenFramebuffers) X(glGenRenderbuffers) \
    X(glGenTextures) X(glGenVertexArrays) X(glGetProgramInfoLog) \
    X(glGetProgramiv) X(glGetShaderInfoLog) X(glGetShaderiv) \
    X(glGetUniformLocation) X(glLinkProgram) X(glPixelStorei) \
    X(glReadBuffer) X(glReadPixels) X(glRenderbufferStorage) \
    X(glShaderSource) X(glTexImage2D) X(glTexParameteri) \
    X(glTexSubImage2D) X(glUniform1f) X(glUniform1i) \
    X(glUniform2f) X(glUniform4f) X(glUseProgram) \
    X(glVertexAttribDivisor) X(glVertexAttribPointer) X(glViewport) \
    X(glGetIntegerv) X(glBindSampler) X(glFramebufferTexture2D) \
    X(glColorMask) X(glBlendEquation) X(glLineWidth) \
    X(glPolygonMode) X(glGetError) X(glGetString) \
    X(glUniform3f) X(glUniform1fv) X(glUniform3fv) \
    X(glGenQueries) X(glDeleteQueries) X(glBeginQuery) \
    X(glEndQuery) X(glGetQueryObjectiv) X(glGetQueryObjectui64v)

typedef struct { DECIBAR_GL_FUNCTIONS(DECIBAR_TABLE_MEMBER) } DecibarGL;

const DecibarGL *decibar_gl_load(char *message, int size);

#endif
