#if Cluster
/// The registry's Lua scripts. Redis runs a script atomically (no other command runs in between, and no key
/// expires during it), which is what makes each claim, compare-and-delete and queue pop exactly-once. They
/// are sent with EVAL each time, so a restarted Redis, whose script cache is empty, needs nothing re-sent.
///
/// Some keys are computed inside the scripts (an owner's instance key from its id), so the registry needs one
/// Redis (or a primary with replicas), not Redis Cluster's sharding.
enum ClusterScripts {
    /// Claims an entry (a room, a token) for this instance, and renews this instance's own key.
    /// KEYS: entry, own instance key. ARGV: own id, TTL in ms, instance key prefix, own address.
    /// Returns {1} when the entry is now this instance's (newly, already, or taken from a dead owner),
    /// {0, owner, owner's address} when a live instance owns it.
    static let claim = """
        redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[2])
        if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1} end
        local owner = redis.call('GET', KEYS[1])
        if owner == ARGV[1] then
            redis.call('PEXPIRE', KEYS[1], ARGV[2])
            return {1}
        end
        local address = redis.call('GET', ARGV[3] .. owner)
        if address then return {0, owner, address} end
        -- The owner's instance key expired: it is dead, and its entry free before its own TTL runs out.
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        return {1}
        """

    /// Renews this instance's key, then each entry it owns; an entry that vanished (Redis restarted without
    /// its data) is written again. Another instance's entry is left alone.
    /// KEYS: own instance key, then the entries. ARGV: own id, own address, TTL in ms.
    /// Returns one integer an entry: 1 renewed, 2 written again, 0 owned by another instance.
    static let refresh = """
        redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
        local outcomes = {}
        for i = 2, #KEYS do
            local owner = redis.call('GET', KEYS[i])
            if owner == ARGV[1] then
                redis.call('PEXPIRE', KEYS[i], ARGV[3])
                outcomes[i - 1] = 1
            elseif not owner then
                redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[3])
                outcomes[i - 1] = 2
            else
                outcomes[i - 1] = 0
            end
        end
        return outcomes
        """

    /// The owner of an entry and its address, when that owner is alive. KEYS: entry. ARGV: instance key prefix.
    /// Returns {owner, address}, or nil.
    static let lookup = """
        local owner = redis.call('GET', KEYS[1])
        if not owner then return false end
        local address = redis.call('GET', ARGV[1] .. owner)
        if not address then return false end
        return {owner, address}
        """

    /// Compare-and-delete: removes the entry only if this instance owns it. KEYS: entry. ARGV: own id.
    /// Returns 1 if removed, 0 otherwise.
    static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// Quick match: takes the oldest live waiter of the rule set (never one taken before: a scanned waiter
    /// leaves the queue, and a taken one's key says who took it, for its owner), or else enqueues the
    /// caller's new waiter at the back. Dead waiters met on the way are dropped.
    /// KEYS: queue, sequence, own instance key. ARGV: own id, own waiter id, TTL in ms, waiter key prefix,
    /// instance key prefix, own address.
    /// Returns {1, waiter, owner, owner's address} when matched, {0} when enqueued.
    static let matchOrEnqueue = """
        redis.call('SET', KEYS[3], ARGV[6], 'PX', ARGV[3])
        while true do
            local oldest = redis.call('ZRANGE', KEYS[1], 0, 15)
            if #oldest == 0 then break end
            for _, waiter in ipairs(oldest) do
                redis.call('ZREM', KEYS[1], waiter)
                local owner = redis.call('GET', ARGV[4] .. waiter)
                if owner and string.sub(owner, 1, 8) ~= 'matched:' then
                    local address = redis.call('GET', ARGV[5] .. owner)
                    if address then
                        redis.call('SET', ARGV[4] .. waiter, 'matched:' .. ARGV[1], 'PX', ARGV[3])
                        return {1, waiter, owner, address}
                    end
                end
            end
        end
        redis.call('SET', ARGV[4] .. ARGV[2], ARGV[1], 'PX', ARGV[3])
        redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[2])
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        return {0}
        """

    /// Renews this instance's waiters and their queues; a waiter that vanished (Redis restarted) is queued
    /// again at the back, one that lost its place while this instance looked dead gets one at the back.
    /// KEYS: sequence. ARGV: own id, TTL in ms, waiter key prefix, then a waiter id and its queue key each.
    /// Returns per waiter: 1 renewed, 2 queued again, or the `matched:<instance>` a taker left.
    static let refreshWaiters = """
        local outcomes = {}
        for i = 4, #ARGV, 2 do
            local waiter, queue = ARGV[i], ARGV[i + 1]
            local key = ARGV[3] .. waiter
            local owner = redis.call('GET', key)
            if owner == ARGV[1] or not owner then
                redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
                if not redis.call('ZSCORE', queue, waiter) then
                    redis.call('ZADD', queue, redis.call('INCR', KEYS[1]), waiter)
                end
                redis.call('PEXPIRE', queue, ARGV[2])
                outcomes[#outcomes + 1] = owner and 1 or 2
            else
                outcomes[#outcomes + 1] = owner
            end
        end
        return outcomes
        """

    /// Queues this instance's waiter again, at the back, without matching: a taker's promise lapsed (its
    /// player never came), and the waiter's player still waits. The taker's `matched:` mark, if it has not
    /// expired yet, is overwritten: the owner keeps the seat, and has stopped keeping it for that taker.
    /// KEYS: queue, sequence, waiter key, own instance key. ARGV: own id, waiter id, TTL in ms, own address.
    /// Returns 1.
    static let requeue = """
        redis.call('SET', KEYS[4], ARGV[4], 'PX', ARGV[3])
        redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[3])
        if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then
            redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[2])
        end
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        return 1
        """

    /// Takes this instance's waiter out of its queue, unless another instance took it first.
    /// KEYS: queue, waiter key. ARGV: own id, waiter id.
    /// Returns 1 if withdrawn, else what the waiter key held (`matched:<instance>`, or nil if gone).
    static let withdraw = """
        local owner = redis.call('GET', KEYS[2])
        if owner == ARGV[1] then
            redis.call('DEL', KEYS[2])
            redis.call('ZREM', KEYS[1], ARGV[2])
            return 1
        end
        return owner
        """
}
#endif
