"""Questions about things a home never saw: a search for them should find nothing (exit 3).

Packs of twenty to forty, each a mix of kinds: questions in one's own words about a life
(`u-1`), tools and systems a coding home never used, asked as questions and as "the latest on"
(`u-2`), terse keyword lists (`u-3`), and the held-out packs (`u-4`: every kind, other
phrasings, run once after the cosine floor was chosen on the other three; `u-5`: tools a coding
user would ask about and a life, written before the token-alignment round and run once at its
end; `u-6`: every kind, thirty questions on topics none of the others touch, written for a
check of a rule chosen on `u-1`..`u-5`; `u-7`: every kind, forty questions, ten of each, on
topics none of the others touch, written after `u-6` as a further held-out check; `u-8`: every
kind, forty questions, ten of each, on topics none of the others touch, written after `u-7` as a
further held-out check).

Each question names its topic words: the words whose presence in a home would make the
question one it *did* see. `seen_words(home_text, topic)` is the check the evaluation runs
per home, so a question is only ever counted on homes that hold none of its topic words
(the demo home holds terraform's state locking; a generated coding home runs `terraform
plan`).
"""

from __future__ import annotations

import re

#: pack -> [(question, topic words)]
PACKS: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "u-1": [
        ("What did the plumber say about the water heater?", ("plumber", "heater")),
        ("Which telescope did I end up buying?", ("telescope",)),
        ("How did my chess tournament in Zagreb go?", ("chess", "zagreb")),
        ("What is the name of my neighbour's parrot?", ("parrot",)),
        ("When is my citizenship interview scheduled?", ("citizenship",)),
        ("What did the mechanic find wrong with the motorbike?", ("mechanic", "motorbike")),
        ("Which violin teacher did I hire for my son?", ("violin",)),
        ("How much did the solar panel installation cost?", ("solar",)),
        ("What did the orthodontist recommend for my daughter?", ("orthodontist",)),
        ("Where did we hold the ceramics fundraiser?", ("ceramics", "fundraiser")),
        ("Which vineyard did we tour in Mendoza?", ("vineyard", "mendoza")),
        ("What flavour was the cake at the christening?", ("christening",)),
        ("How did the beekeeping inspection go?", ("beekeeping", "bees", "hive")),
        ("What did my accountant say about the inheritance tax?", ("accountant", "inheritance")),
        ("Which submarine museum did we visit?", ("submarine",)),
        ("What happened with the falconry lesson?", ("falconry", "falcon")),
        ("Which kayak brand did I order online?", ("kayak",)),
        ("What did the locksmith charge for the garage door?", ("locksmith",)),
        ("How is my grandfather's hip replacement healing?", ("hip replacement",)),
        ("What colour did we paint the narrowboat?", ("narrowboat",)),
    ],
    "u-2": [
        ("latest on the kubernetes helm upgrade for the billing cluster", ("kubernetes", "helm")),
        ("terraform state lock on the payments workspace", ("terraform",)),
        ("How did we fix the kafka consumer lag on the orders topic?", ("kafka",)),
        ("What did we decide about the istio sidecar injection?", ("istio", "sidecar")),
        ("why was the grafana alert for redis sentinel failover muted?", ("grafana", "sentinel")),
        ("Which elasticsearch shard allocation setting did we change?", ("elasticsearch", "shard")),
        ("Where are we with the airflow DAG backfill?", ("airflow",)),
        ("What broke in the ansible playbook for the bastion hosts?", ("ansible", "bastion")),
        ("latest on the cassandra compaction tuning", ("cassandra", "compaction")),
        ("Did we ever rotate the vault unseal keys?", ("vault", "unseal")),
        ("How did the spark executor OOM get resolved?", ("spark", "executor")),
        ("What was the verdict on moving CI to buildkite?", ("buildkite",)),
        ("the prometheus remote write to thanos keeps dropping samples", ("prometheus", "thanos")),
        ("When did we migrate the DNS zone to route53?", ("route53", "dns")),
        ("Which nginx ingress annotation fixed the websocket timeouts?", ("nginx", "ingress",
                                                                         "websocket")),
        ("What's the status of the flutter app's push notifications?", ("flutter",)),
        ("how did we shard the mongodb replica set", ("mongodb", "replica")),
        ("What did the pentest report say about the SAML assertion replay?", ("pentest", "saml")),
        ("latest on the snowflake warehouse credit usage", ("snowflake",)),
        ("Why did the android gradle build fail on the R8 step?", ("android", "gradle")),
    ],
    "u-3": [
        ("flamenco rehearsal schedule", ("flamenco",)),
        ("mortgage broker fixed rate quote", ("mortgage",)),
        ("quarterly OKR review marketing director", ("okr",)),
        ("sourdough starter hydration", ("sourdough",)),
        ("helmfile diff staging", ("helmfile",)),
        ("pgbouncer pool exhaustion", ("pgbouncer",)),
        ("wedding venue deposit refund", ("wedding",)),
        ("rust borrow checker lifetime error", ("borrow", "lifetime")),
        ("tax return self assessment deadline", ("self assessment",)),
        ("glacier trek cancelled", ("glacier",)),
        ("swimming pool chlorine levels", ("chlorine",)),
        ("jenkins groovy shared library", ("jenkins", "groovy")),
        ("piano recital sheet music", ("piano", "recital")),
        ("CORS preflight safari", ("cors", "safari")),
        ("astronomy club eclipse", ("astronomy", "eclipse")),
        ("zookeeper quorum loss", ("zookeeper", "quorum")),
        ("veterinarian vaccination schedule puppy", ("veterinarian", "puppy")),
        ("wasm simd benchmark", ("wasm", "simd")),
        ("sommelier venison pairing", ("sommelier", "venison")),
        ("tokyo marathon registration", ("tokyo", "marathon")),
    ],
    "u-4": [  # held out
        ("What did the dermatologist say about the rash on my arm?", ("dermatologist", "rash")),
        ("Which ski resort did we book for February?", ("ski",)),
        ("how did the opera tickets for la traviata work out", ("opera", "traviata")),
        ("latest on the clickhouse materialized view rebuild", ("clickhouse",)),
        ("What did we decide about the graphql federation gateway?", ("graphql", "federation")),
        ("celery beat duplicate tasks", ("celery",)),
        ("When does my driving licence renewal expire?", ("licence", "driving")),
        ("What went wrong with the rabbitmq dead letter exchange?", ("rabbitmq",
                                                                   "dead letter")),
        ("kite surfing lessons portugal", ("kite", "surfing")),
        ("Who recommended the podcast about medieval castles?", ("podcast", "medieval")),
        ("nomad job spec consul connect", ("nomad", "consul")),
        ("Did the insurance cover the flooded basement?", ("insurance", "basement")),
        ("how much is the cello rental per month", ("cello",)),
        ("the lambda cold start on the image resizer", ("lambda", "resizer")),
        ("What did the electrician quote for rewiring the attic?", ("electrician", "attic")),
        ("bigquery slot reservation", ("bigquery",)),
        ("Which cheese shop did we find in Lyon?", ("cheese", "lyon")),
        ("the ios keychain migration after the swiftui rewrite", ("keychain", "swiftui")),
        ("pottery kiln temperature", ("kiln",)),
        ("What did the landlord say about the mould in the bathroom?", ("landlord", "mould")),
    ],
    "u-5": [  # held out, written before the token-alignment round: coding and life
        ("How did we pin the poetry lockfile for the lambda layer?", ("poetry",)),
        ("What did we decide about moving the monorepo to bazel?", ("bazel",)),
        ("latest on the argocd sync failures in the eu cluster", ("argocd",)),
        ("why does the pulumi preview hang on the network stack", ("pulumi",)),
        ("Which webpack loader broke the svg sprites?", ("webpack", "svg")),
        ("How did we get the cypress tests to stop flaking on the checkout page?", ("cypress",)),
        ("opentelemetry collector tail sampling config", ("opentelemetry", "sampling")),
        ("What was wrong with the dynamodb global table replication?", ("dynamodb",)),
        ("haskell cabal dependency hell", ("haskell", "cabal")),
        ("Did we ever turn on dependabot for the mobile repos?", ("dependabot",)),
        ("the sentry sourcemaps upload for the next.js app", ("sentry", "sourcemaps")),
        ("How do we rotate the cloudflare origin certificates?", ("cloudflare",)),
        ("What did we settle on for the protobuf versus avro question in the event bus?",
         ("avro", "protobuf")),
        ("latest on the elixir phoenix liveview prototype", ("elixir", "phoenix", "liveview")),
        ("k6 load test thresholds for the search endpoint", ("k6",)),
        ("Why did the unity build of the game crash on the shader compile?", ("unity", "shader")),
        ("What did the physiotherapist say about my shoulder?", ("physiotherapist", "shoulder")),
        ("Which campsite did we reserve near the lake district?", ("campsite", "lake district")),
        ("How did my daughter's swimming gala go?", ("swimming", "gala")),
        ("What did the surveyor say about the damp in the cellar?", ("surveyor", "cellar")),
        ("tapestry weaving workshop dates", ("tapestry", "weaving")),
        ("Which harmonica did I buy for the blues class?", ("harmonica",)),
        ("When is the ferry to the hebrides leaving?", ("ferry", "hebrides")),
        ("What did the notary need for the apartment sale?", ("notary",)),
    ],
    "u-6": [  # held out, written for a check of a rule chosen on u-1..u-5: every kind
        # tools, services and languages a coding home never used
        ("Why does varnish keep serving stale pages after we purge the product URLs?",
         ("varnish",)),
        ("latest on the datadog APM bill after the trace volume spike", ("datadog",)),
        ("How did we resolve the cockroachdb transaction retry errors on the ledger tables?",
         ("cockroachdb",)),
        ("latest on the sveltekit upgrade for the marketing site", ("sveltekit", "svelte")),
        ("Why does the fastly VCL strip the authorization header on cached routes?",
         ("fastly", "vcl")),
        ("Which packer template builds the golden AMI for the batch workers?", ("packer", "ami")),
        ("why does the hadoop namenode drop into safe mode every time we restart the cluster",
         ("hadoop", "namenode")),
        ("Why does the laravel queue worker keep re-running jobs that already failed?",
         ("laravel",)),
        ("What happened with the pagerduty escalation that never paged the on-call?",
         ("pagerduty",)),
        ("latest on the auth0 tenant migration", ("auth0",)),
        ("How do we get the C# solution building with dotnet 8 on the ARM runners?",
         ("dotnet", "c#")),
        ("Why does the neo4j cypher query time out on the recommendations graph?",
         ("neo4j", "cypher")),
        # terse keywords
        ("ocaml dune build cache", ("ocaml",)),
        ("salesforce apex governor limits", ("salesforce", "apex")),
        ("sqs visibility timeout retries", ("sqs",)),
        ("tailwind purge unused classes", ("tailwind",)),
        ("keycloak realm export", ("keycloak",)),
        ("minio erasure coding drives", ("minio",)),
        # a life, in one's own words
        ("How did mum's cataract operation go on Thursday?", ("cataract",)),
        ("When is the chimney sweep coming back to look at the wood burner?",
         ("chimney", "wood burner")),
        ("Which metal detector did I pick up at the car boot sale?",
         ("metal detector", "car boot")),
        ("What did the audiologist say about dad's hearing aids?", ("audiologist", "hearing aid")),
        ("Which ryokan did we stay at in Hakone?", ("ryokan", "hakone")),
        ("How did I score at the archery club's autumn shoot?", ("archery",)),
        ("What did the arborist say about the sycamore leaning over the fence?",
         ("arborist", "sycamore")),
        ("Which pressure washer did I end up buying for the patio?", ("pressure washer",)),
        ("How is my niece getting on with her gymnastics squad?", ("gymnastics",)),
        # vague, but naming the topic
        ("anything new on the calligraphy class?", ("calligraphy",)),
        ("any word on the scuba certification?", ("scuba",)),
        ("where did we land with the scala thing?", ("scala",)),
    ],
    "u-7": [  # held out, written after u-6: every kind, ten of each
        # tools, services and languages a coding home never used
        ("How did we fix the memcached eviction storm on the session cache?", ("memcached",)),
        ("latest on the supabase row level security rollout", ("supabase",)),
        ("Why does traefik drop the X-Forwarded-For header behind the load balancer?",
         ("traefik",)),
        ("Why does the julia package take ten minutes to precompile on the cluster nodes?",
         ("julia",)),
        ("latest on the temporal workflow versioning for the refunds service", ("temporal",)),
        ("How did we fix the flink checkpoints timing out on the clickstream job?", ("flink",)),
        ("What did we decide about moving the feature flags to launchdarkly?", ("launchdarkly",)),
        ("How did we get the sonarqube quality gate to stop failing on generated code?",
         ("sonarqube",)),
        ("latest on the timescaledb hypertable compression", ("timescaledb", "hypertable")),
        ("how did we fix the fluentd buffer overflowing when the log shipper falls behind",
         ("fluentd",)),
        # terse keywords
        ("loki log retention", ("loki",)),
        ("haproxy stick tables", ("haproxy",)),
        ("vitess resharding", ("vitess",)),
        ("zig cross compile musl", ("zig", "musl")),
        ("adyen webhook hmac", ("adyen",)),
        ("cobol mainframe batch", ("cobol", "mainframe")),
        ("allotment plot waiting list", ("allotment",)),
        ("dinghy capsize drill", ("dinghy", "capsize")),
        ("bonsai repotting season", ("bonsai",)),
        ("birdwatching hide reservoir", ("birdwatching",)),
        # a life, in one's own words
        ("What did the farrier say about the mare's cracked hoof?", ("farrier", "hoof")),
        ("What did the midwife say at the twenty-week scan?", ("midwife",)),
        ("Which tattoo artist did I book for the half sleeve?", ("tattoo",)),
        ("How did bell ringing practice go at St Mary's on Sunday?",
         ("bell ringing", "bellringing")),
        ("Which caravan park did we stay at in Pembrokeshire?", ("caravan", "pembrokeshire")),
        ("How much did the conservatory end up costing?", ("conservatory",)),
        ("What did the podiatrist say about my bunion?", ("podiatrist", "bunion")),
        ("How did my son's judo grading go?", ("judo",)),
        ("How is the rescue tortoise settling in?", ("tortoise",)),
        ("What did the stonemason quote for rebuilding the garden wall?", ("stonemason",)),
        # vague, but naming the topic: plain words and rare ones
        ("What time does the tide turn for Saturday's crossing?", ("tide",)),
        ("where did we land on the wallpaper for the hallway?", ("wallpaper",)),
        ("Did anyone ever bring the ladder back from next door?", ("ladder",)),
        ("did we ever sort out the draught from the back door?", ("draught",)),
        ("What did we say about the curtains in the end?", ("curtain",)),
        ("where did we leave it with the hedge?", ("hedge",)),
        ("any news on the gazebo?", ("gazebo",)),
        ("what was the upshot with the harpsichord?", ("harpsichord",)),
        ("any update on the weathervane?", ("weathervane",)),
        ("how did the thing with the marquee go?", ("marquee",)),
    ],
    "u-8": [  # held out, written after u-7: every kind, ten of each
        # tools, services and languages a coding home never used
        ("How did we stop the nats jetstream consumers redelivering the same message?",
         ("nats", "jetstream")),
        ("latest on the pinecone index migration", ("pinecone",)),
        ("Why does envoy return 503s when the upstream pool drains?", ("envoy",)),
        ("latest on the backstage developer portal rollout", ("backstage",)),
        ("What did we decide about moving the analytics queries to duckdb?", ("duckdb",)),
        ("How did we get the spinnaker canary analysis to stop failing deploys?",
         ("spinnaker",)),
        ("Why does the erlang node keep dropping out of the cluster after a netsplit?",
         ("erlang", "netsplit")),
        ("latest on the artifactory storage cleanup", ("artifactory", "jfrog")),
        ("How did we get the kotlin multiplatform build working for the ios target?",
         ("kotlin", "multiplatform")),
        ("Why does couchbase XDCR replication fall behind overnight?", ("couchbase", "xdcr")),
        # terse keywords
        ("fortran openmp threads", ("fortran", "openmp")),
        ("nextflow pipeline resume", ("nextflow",)),
        ("ceph osd rebalancing", ("ceph", "osd")),
        ("solidity reentrancy guard", ("solidity", "reentrancy")),
        ("matlab simulink model", ("matlab", "simulink")),
        ("crochet granny square pattern", ("crochet",)),
        ("inflatable paddleboard pump", ("paddleboard",)),
        ("ukulele chord chart", ("ukulele",)),
        ("rugby sevens fixtures", ("rugby",)),
        ("genealogy census records 1911", ("genealogy", "census")),
        # a life, in one's own words
        ("What did the optician say about my new prescription?", ("optician",)),
        ("How did grandma's ninetieth at the bowls club go?", ("bowls", "ninetieth")),
        ("What did the vet say about the guinea pig's teeth?", ("guinea pig",)),
        ("What did the chiropractor say about my lower back?", ("chiropractor",)),
        ("Which choir did my wife end up joining?", ("choir",)),
        ("How much did the loft conversion quote come in at?", ("loft",)),
        ("What did the headteacher say at parents' evening about Tom's reading?",
         ("headteacher",)),
        ("Which pony club camp did my daughter go to in August?", ("pony",)),
        ("What did the solicitor say about the boundary dispute with next door?",
         ("solicitor",)),
        ("What did the dentist say about my wisdom tooth?", ("dentist", "wisdom tooth")),
        # vague, but naming the topic: plain words and rare ones
        ("where did we get to with the greenhouse?", ("greenhouse",)),
        ("did we ever sort the gutters out?", ("gutter",)),
        ("what happened with the trampoline in the end?", ("trampoline",)),
        ("any word on the carpet?", ("carpet",)),
        ("whatever happened about the lawnmower?", ("lawnmower", "mower")),
        ("any update on the sundial?", ("sundial",)),
        ("where did we leave it with the dovecote?", ("dovecote",)),
        ("what was decided about the chandelier?", ("chandelier",)),
        ("did anything come of the gramophone?", ("gramophone",)),
        ("what did we end up doing about the sextant?", ("sextant",)),
    ],
}

HELD_OUT = ("u-4", "u-5", "u-6", "u-7", "u-8")


def _pattern(word: str) -> "re.Pattern[str]":
    # the word or an inflection of it ("ski", "skiing", "Skis"), never a longer word ("skip")
    return re.compile(r"(?<![a-z0-9])" + re.escape(word.lower()) + r"(?:s|es|ed|ing|er|ers)?"
                      r"(?![a-z0-9])", re.IGNORECASE)


def seen_words(home_text: str, topic: tuple[str, ...]) -> list[str]:
    """The topic words the home's text holds (case-insensitive, the word or an
    inflection of it)."""
    return [word for word in topic if _pattern(word).search(home_text)]


def questions(packs: tuple[str, ...] | list[str]) -> list[tuple[str, str, tuple[str, ...]]]:
    """(pack, question, topic words) of the packs named."""
    return [(pack, text, topic) for pack in packs for text, topic in PACKS[pack]]
