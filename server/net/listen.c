/* Checks, before a world is built, that the server can listen on its address and port. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/server.h"

int fc_listen_check(const char *bind_address, int port, char *err, size_t errlen)
{
    if (port == 0) return 0; /* any free port */
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = strchr(bind_address, ':') ? AF_INET6 : AF_INET; /* as the server's IPv6 option */
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char service[8];
    snprintf(service, sizeof service, "%d", port);
    if (getaddrinfo(bind_address, service, &hints, &found) != 0 || !found) return 0; /* libwebsockets decides */
    int fd = socket(found->ai_family, found->ai_socktype, found->ai_protocol), failure = 0;
    if (fd >= 0) {
        int on = 1; /* as libwebsockets: a port whose last connections are in TIME_WAIT is free */
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        if (bind(fd, found->ai_addr, found->ai_addrlen) != 0) failure = errno;
        close(fd);
    }
    freeaddrinfo(found);
    if (failure == EADDRINUSE)
        snprintf(err, errlen,
                 "port %d is already in use on %s (another fluidcast serve?); choose another with --port N, or "
                 "--port 0 for any free port",
                 port, bind_address);
    else if (failure == EADDRNOTAVAIL)
        snprintf(err, errlen, "--bind %s: not an address of this machine", bind_address);
    else if (failure == EACCES)
        snprintf(err, errlen, "port %d needs privileges on this machine; choose one above 1023 with --port N", port);
    else if (failure)
        snprintf(err, errlen, "cannot listen on %s port %d: %s", bind_address, port, strerror(failure));
    return failure ? -1 : 0;
}
