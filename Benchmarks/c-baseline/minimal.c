/* Minimal libmicrohttpd server: the C baseline for MicroHTTP's request rate.
 *
 * Same thread model and options as MicroHTTP: internal polling thread + epoll + ITC,
 * a thread pool of one thread per online processor, 1020 connections, 64 KiB per
 * connection, 30 s idle timeout, bound to 127.0.0.1. GET answers a small JSON; POST
 * reads the body fully (copied, as MicroHTTP does) and answers {"received":N}.
 *
 * Build: cc -O2 -o minimal minimal.c $(pkg-config --cflags --libs libmicrohttpd)
 * Run:   ./minimal [port [threads]]      (default 8081, one thread per online processor; stops on SIGINT/SIGTERM)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct body {
    char *bytes;
    size_t size;
    size_t capacity;
};

static enum MHD_Result
answer(struct MHD_Connection *connection, const char *text)
{
    struct MHD_Response *response =
        MHD_create_response_from_buffer(strlen(text), (void *) text, MHD_RESPMEM_MUST_COPY);
    if (response == NULL)
        return MHD_NO;
    MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return result;
}

static enum MHD_Result
handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
       const char *version, const char *upload_data, size_t *upload_data_size, void **con_cls)
{
    (void) cls; (void) url; (void) version;
    struct body *body = *con_cls;
    if (body == NULL) { /* first call: head only */
        body = calloc(1, sizeof *body);
        if (body == NULL)
            return MHD_NO;
        const char *length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
        if (length != NULL) {
            body->capacity = strtoul(length, NULL, 10);
            body->bytes = body->capacity ? malloc(body->capacity) : NULL;
        }
        *con_cls = body;
        return MHD_YES;
    }
    if (*upload_data_size > 0) { /* a body chunk */
        if (body->size + *upload_data_size > body->capacity) {
            size_t capacity = (body->size + *upload_data_size) * 2;
            char *grown = realloc(body->bytes, capacity);
            if (grown == NULL)
                return MHD_NO;
            body->bytes = grown;
            body->capacity = capacity;
        }
        memcpy(body->bytes + body->size, upload_data, *upload_data_size);
        body->size += *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(method, "POST") == 0) { /* last call */
        char text[64];
        snprintf(text, sizeof text, "{\"received\":%zu}", body->size);
        return answer(connection, text);
    }
    return answer(connection, "{\"message\":\"hello\"}");
}

static void
completed(void *cls, struct MHD_Connection *connection, void **con_cls,
          enum MHD_RequestTerminationCode toe)
{
    (void) cls; (void) connection; (void) toe;
    struct body *body = *con_cls;
    if (body != NULL) {
        free(body->bytes);
        free(body);
        *con_cls = NULL;
    }
}

int
main(int argc, char **argv)
{
    int port = argc > 1 ? atoi(argv[1]) : 8081;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t) port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    long cores = argc > 2 ? atol(argv[2]) : sysconf(_SC_NPROCESSORS_ONLN);
    struct MHD_Daemon *daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC, 0, NULL, NULL,
        &handle, NULL,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *) &address,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned int) (cores > 0 ? cores : 1),
        MHD_OPTION_CONNECTION_LIMIT, 1020u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) (64 * 1024),
        MHD_OPTION_CONNECTION_TIMEOUT, 30u,
        MHD_OPTION_NOTIFY_COMPLETED, &completed, NULL,
        MHD_OPTION_END);
    if (daemon == NULL) {
        perror("MHD_start_daemon");
        return 1;
    }
    printf("minimal listening on 127.0.0.1:%d\n", port);
    fflush(stdout);
    int signal_number;
    sigwait(&set, &signal_number);
    MHD_stop_daemon(daemon);
    return 0;
}
