#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* 0.9.75 is the version this shim was written and tested against: it needs
   enum MHD_Result, MHD_DAEMON_INFO_BIND_PORT and MHD_quiesce_daemon with ITC. */
#if !defined(MHD_VERSION) || MHD_VERSION < 0x00097500
#error "CMicroHTTPD needs libmicrohttpd >= 0.9.75"
#endif

/* Signature of MHD_OPTION_URI_LOG_CALLBACK (the header has no typedef for it). */
typedef void *(*CMicroHTTPD_URILogCallback)(void *cls,
                                            const char *uri,
                                            struct MHD_Connection *connection);

/* MHD_start_daemon is variadic; this fixes the option list MicroHTTP uses.
   `address` must point to a sockaddr_in (or sockaddr_in6 with MHD_USE_IPv6 in flags). The logger comes
   first, as libmicrohttpd asks, so that no message goes to its default logger (standard error); it is
   called only with MHD_USE_ERROR_LOG in flags. */
static inline struct MHD_Daemon *
CMicroHTTPD_start_daemon(unsigned int flags,
                         MHD_LogCallback logger,
                         void *logger_cls,
                         MHD_NotifyConnectionCallback notify_connection,
                         void *notify_connection_cls,
                         const struct sockaddr *address,
                         unsigned int thread_pool_size,
                         unsigned int connection_limit,
                         size_t connection_memory_limit,
                         unsigned int connection_timeout_seconds,
                         MHD_AccessHandlerCallback access_handler,
                         void *access_handler_cls,
                         MHD_RequestCompletedCallback completed,
                         void *completed_cls,
                         CMicroHTTPD_URILogCallback uri_log,
                         void *uri_log_cls)
{
    return MHD_start_daemon(flags, 0 /* port comes from the address */,
                            NULL, NULL,
                            access_handler, access_handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_END);
}

/* MHD_get_daemon_info is variadic; the info types MicroHTTP asks for take no extra argument. */
static inline const union MHD_DaemonInfo *
CMicroHTTPD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type)
{
    return MHD_get_daemon_info(daemon, type);
}

/* MHD_get_connection_info is variadic; the info types MicroHTTP asks for take no extra argument. */
static inline const union MHD_ConnectionInfo *
CMicroHTTPD_get_connection_info(struct MHD_Connection *connection,
                                enum MHD_ConnectionInfoType type)
{
    return MHD_get_connection_info(connection, type);
}

/* MHD_set_connection_option is variadic; MHD_CONNECTION_OPTION_TIMEOUT takes one unsigned int. */
static inline enum MHD_Result
CMicroHTTPD_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds)
{
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/* The connection's socket (valid from the connection's start notice to its close notice). */
static inline int
CMicroHTTPD_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return NULL == info ? -1 : info->connect_fd;
}

/* Whether a response is queued on the connection (libmicrohttpd's own error answers included). */
static inline int
CMicroHTTPD_has_response(struct MHD_Connection *connection)
{
    return NULL != MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
}

/* Whether the connection's request head has been received completely (its size is known). */
static inline int
CMicroHTTPD_head_received(struct MHD_Connection *connection)
{
    return NULL != MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
}

/* The size of the request head from the method's first byte to the end of the empty line, or 0 when the
   head is not complete. */
static inline size_t
CMicroHTTPD_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return NULL == info ? 0 : info->header_size;
}

/* The pointer MicroHTTP stored for the connection in its start notice (its socket context). */
static inline void *
CMicroHTTPD_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return NULL == info ? NULL : info->socket_context;
}

#endif /* CMICROHTTPD_SHIM_H */
