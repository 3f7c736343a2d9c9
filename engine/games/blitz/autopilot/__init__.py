"""Standing orders (§7): what every unit without a player's order does in step 6.

The policy, in short (docs/autopilot.md has the long form):

* an appliance with nothing in hand drives along clear streets to the parking street that
  best serves the fires nobody yet fights (fires next to stores, occupants and objectives
  first; then nearness, water at hand and a cool street), connects to the best water
  there (hydrant, open water, dam, else its tank) and sends its fire teams out;
* each fire team lays a line from its pump to the branch position that gives the best
  chance against a fire in range (range bonus times the chance to pass the heat test),
  then plays on it; when that fire is out it takes another in range, puts out embers,
  damps down neighbours of fires it cannot reach, and finally takes its line up so the
  appliance can move on; an exhausted team rests;
* fire parties attack fires of 1 next to them and refill; rescue teams and crews go to
  buried casualties once the fire there is out; ambulance and mortuary crews carry the
  found to their vehicle, which drives them out through an entry; a doctor goes where
  casualties are being found; the canteen follows the busiest appliance; a mobile dam
  deploys next to an appliance running on its tank; trailer and skid pumps deploy (the small
  pump team deploys its own trailer pump, a turn, and recovers it before driving on);
* an idle fire team with hose on its appliance fetches a free wheelbarrow pump lying within
  a turn's walk when water is close to it and a fire within hose reach of that water,
  carries it there, sets it down, connects it and lays a line from it.

Every unit also preserves itself (R-7, in the movement step).
"""
