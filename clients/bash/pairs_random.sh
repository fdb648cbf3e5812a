#!/usr/bin/env bash
# A Pairs player in plain bash: bash's /dev/tcp for the socket, the server's text commands for requests,
# and a few regular expressions to read the JSON that comes back. It plays one game, flipping random
# face-down cards, prints the result as `pairs bot` would, and quits.
#
# usage: pairs_random.sh [HOST] [PORT] [ROOM] [NAME]     (defaults: localhost 7777, quick match, bash)
#
# Names containing quotes would confuse the regular expressions; a real client uses a JSON parser.
set -u
host=${1:-localhost}
port=${2:-7777}
room=${3:-}
name=${4:-bash}

if ! exec 3<>"/dev/tcp/$host/$port"; then
    echo "pairs_random.sh: cannot connect to $host:$port" >&2
    exit 1
fi
printf 'name %s\n' "$name" >&3
printf 'join %s\n' "$room" >&3

seat=""
while IFS= read -r line <&3; do
    case $line in
    *'"type":"joined"'*)
        [[ $line =~ \"seat\":([01]) ]] && seat=${BASH_REMATCH[1]}
        ;;
    *'"type":"error"'*)
        [[ $line =~ \"message\":\"([^\"]*)\" ]] && echo "pairs_random.sh: the server said: ${BASH_REMATCH[1]}" >&2
        ;;
    *'"type":"state"'*)
        [[ -n $seat && $line =~ \"phase\":\"([a-z]+)\" ]] || continue
        phase=${BASH_REMATCH[1]}
        if [[ $phase == over ]]; then
            # The players' names and scores, seat 0 first.
            players=${line#*\"players\":[}
            names=() scores=()
            while [[ $players =~ \"name\":\"([^\"]*)\",\"score\":([0-9]+) ]]; do
                names+=("${BASH_REMATCH[1]}")
                scores+=("${BASH_REMATCH[2]}")
                players=${players#*"${BASH_REMATCH[0]}"}
            done
            other=$((1 - seat))
            [[ $line =~ \"winner\":([01]|null) ]]
            case ${BASH_REMATCH[1]} in
            null) result=draw ;;
            "$seat") result=won ;;
            *) result=lost ;;
            esac
            echo "game 1: ${names[seat]} ${scores[seat]} - ${scores[other]} ${names[other]:-nobody} ($result)"
            printf 'leave\nquit\n' >&3
        elif [[ $phase == playing && $line =~ \"turn\":$seat[,}] ]]; then
            # One flip per state: the state that answers it says whether a second card is due.
            cards=${line#*\"cards\":[}
            cards=${cards%%]*}
            down=()
            index=0
            IFS='}' read -ra entries <<<"$cards"
            for entry in "${entries[@]}"; do
                [[ $entry == *'"state"'* ]] || continue
                [[ $entry == *'"down"'* ]] && down+=("$index")
                index=$((index + 1))
            done
            ((${#down[@]} > 0)) && printf 'flip %d\n' "${down[RANDOM % ${#down[@]}]}" >&3
        fi
        ;;
    *'"type":"bye"'*)
        break
        ;;
    esac
done
exec 3<&-
