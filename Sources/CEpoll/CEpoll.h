// epoll, for the load generator's event loop (Sources/PairsLoad/EventPoller.swift).
#include <sys/epoll.h>
