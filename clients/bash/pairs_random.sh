#!/usr/bin/env bash
# A Pairs player in plain bash: bash's /dev/tcp for the socket, the server's text commands for requests,
# and a few regular expressions to read the JSON that comes back. It plays one game, flipping random
# face-down cards, prints the result as `pairs bot` would, and quits.
#
# usage: pairs_random.sh [HOST] [PORT] [ROOM] [NAME]     (defaults: localhost 7777, quick match, bash)
#
# Names containing quotes would confuse the regular expressions; a real client uses a JSON parser.
# Whatever the server sends is cleaned before it is printed (`printable`): a name could otherwise carry
# escape sequences that set the terminal's title or clipboard, clear its screen or type into it.
set -u

# $1 with everything that acts on a terminal removed: C0 controls (ESC, BEL, CR...) and DEL, C1 controls
# (U+0080-U+009F, UTF-8 C2 80-9F: U+009B is CSI), and the invisible and bidirectional format characters
# (U+200B-U+200F but U+200D, which holds emoji together; U+2028-U+202E; U+2060-U+206F; U+FEFF). Byte
# patterns, in the C locale, so it works whatever the locale is. JSON escapes such as \u001b stay as
# the six characters they are, which print harmlessly.
printable() {
    local LC_ALL=C text=$1
    text=${text//[$'\x01'-$'\x1f'$'\x7f']/}
    text=${text//$'\xc2'[$'\x80'-$'\x9f']/}
    text=${text//$'\xe2\x80'[$'\x8b'$'\x8c'$'\x8e'$'\x8f'$'\xa8'-$'\xae']/}
    text=${text//$'\xe2\x81'[$'\xa0'-$'\xaf']/}
    text=${text//$'\xef\xbb\xbf'/}
    printf '%s' "$text"
}
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
        [[ $line =~ \"message\":\"([^\"]*)\" ]] && echo "pairs_random.sh: the server said: $(printable "${BASH_REMATCH[1]}")" >&2
        ;;
    *'"type":"state"'*)
        [[ -n $seat && $line =~ \"phase\":\"([a-z]+)\" ]] || continue
        phase=${BASH_REMATCH[1]}
        if [[ $phase == over ]]; then
            # The players' names and scores, seat 0 first.
            players=${line#*\"players\":[}
            names=() scores=()
            while [[ $players =~ \"name\":\"([^\"]*)\",\"score\":([0-9]+) ]]; do
                names+=("$(printable "${BASH_REMATCH[1]}")")
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
            # Each card's "state", in order (a face holding ] or } cannot end the list early: only the
            # cards have a "state", and a quote inside a face is escaped).
            cards=${line#*\"cards\":[}
            down=()
            index=0
            while [[ $cards =~ \"state\":\"([a-z]+)\" ]]; do
                [[ ${BASH_REMATCH[1]} == down ]] && down+=("$index")
                index=$((index + 1))
                cards=${cards#*"${BASH_REMATCH[0]}"}
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
