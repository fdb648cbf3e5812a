// epoll, for the load generator's event loop (Sources/PairsLoad/EventPoller.swift).
#include <sys/epoll.h>
// eventfd, which wakes a readiness waiter to stop (Sources/PairsPolling/ReadinessWaiter.swift).
#include <sys/eventfd.h>
