// English function words plus the filler of requests ("please help me ..."), which say nothing about the task.
const WORDS = `a about above after again against all also am an and any are aren as at be because been before being below
between both but by can cannot could did do does doing don done down during each either else etc even ever every for from
further get gets getting give had has have having he her here hers herself him himself his how however i if in into is isn
it its itself just let lets like ll me might mine more most much must my myself need needs no nor not now of off on once
only or other ought our ours ourselves out over own per please quite rather re really s same shall she should so some
somebody someone something sometimes still such t than that the their theirs them themselves then there these they thing
things this those though through thus to too under until up upon us ve very via want wants was wasn way we well were
what whatever when where whether which while who whom whose why will with within without won would yet you your yours
yourself yourselves d m y o e g i.e eg ie okay ok hey hi hello thanks thank kind sort stuff`;

/** Words dropped from queries and documents before indexing. */
export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));
