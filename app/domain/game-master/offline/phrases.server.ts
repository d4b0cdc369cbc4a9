/**
 * What the offline storyteller says around the world's own sentences: the phrases that frame a
 * paragraph and the lines people speak (the choices' are in choices.server.ts). Data only;
 * paragraphs.server.ts decides which to use. Each holds slots the game fills ({who}, {here},
 * {someone}, {trouble}…, Teller.values), at least one every few words, so the wording is the
 * story's own rather than a formula every game shares (issue 33's stock-phrase figure).
 *
 * A paragraph is framed by an opener and a closer, and the pair is picked by the story's turn, so
 * the same framing of the same content comes back only after openers × closers turns. Every frame
 * has 8 openers and 7 closers: 56 turns, more than the 50 a story must go without repeating a
 * paragraph (a test holds every frame to that).
 */

export const ANSWER_OPENERS = [
  "{Who} answers without hesitation.",
  "{Who} glances at {someone} before replying.",
  "{Who} eyes the door of {here}, then answers.",
  "It is {who} who answers, low-voiced.",
  "{Who} seems relieved, this {watch}, to be asked.",
  "{Who} answers as though {someone} had predicted it.",
  "{Who} waits until {someone} is out of earshot.",
  "{Who} weighs the question as {here} weighs everything.",
];

export const ANSWER_CLOSERS = [
  "That much, all {here} knows.",
  "Keep it from {someone}.",
  "None of it leaves {here}.",
  "It may help {someone} against {trouble}.",
  "It cost {someone} dearly to learn it.",
  "For more, try {elsewhere}.",
  "That is all, this {watch}.",
];

export const UNKNOWN_OPENERS = [
  "{Who} hesitates, glancing at {someone}. “{Subject}{, you}? Not in {here}.”",
  "“{Subject}?” {Who} frowns at {someone}. “Not in {here}{, you}.”",
  "{Who} glances at {someone}, slow to answer. “{Subject}{, you}? Not even {elsewhere} knows.”",
  "“I wish I knew{, you},” says {who}, eyes on {someone}.",
  "{Who} looks toward {elsewhere}. “{Subject}? {Here} has told me nothing.”",
  "“{Subject}?” {Who} glances at {someone}. “Ask in {elsewhere}{, you}, not here.”",
  "“{Subject}{, you}? Someone braver than {someone} might know,” {who} admits.",
  "{Who} spreads empty hands at {someone}. “{Subject}? Only rumours, in {here}.”",
];

/** After "I do not know": who might, and what {who} does know of them, so the answer still gives the player a lead. */
export const UNKNOWN_CLOSERS = [
  "“Ask {other}. {otherFact}”",
  "“{Other} might. {otherFact}”",
  "“Try {other}, carefully. {otherFact}”",
  "“I would start with {other}, not {someone}. {otherFact}”",
  "“{Other} asked me too, and {someone} heard. {otherFact}”",
  "“{Other} will hear from {someone} that you asked. {otherFact}”",
  "“{Other} knows more than {someone}. {otherFact}”",
];

export const NOBODY_OPENERS = [
  "You look in {here} for anyone who knows {subject}; nobody does.",
  "Nobody in {here} will speak of {subject}.",
  "The question of {subject} meets silence this {watch}.",
  "Of {subject}, you know less than {someone} hoped.",
  "Whatever {subject} is, {here} keeps it to itself.",
  "About {subject}, {elsewhere} sends only rumour.",
  "You listen for {subject}; {here} offers nothing.",
  "Of {subject}, no one in {here} speaks.",
];

export const NOBODY_CLOSERS = [
  "Perhaps {elsewhere} knows more.",
  "{Someone} might, if asked well.",
  "It will keep until {nextWatch}.",
  "The answer may not please {someone}.",
  "You will ask again in {elsewhere}.",
  "It stays a question until {nextWatch}.",
  "Sooner or later, {someone} will let it slip.",
];

export const RECALL_OPENERS = [
  "You know more about {subject} than {someone} would guess.",
  "What you know of {subject} comes back to you.",
  "You have heard of {subject} in {here}.",
  "What you know of {subject} is this.",
  "Memory answers before {someone} can.",
  "You need not ask {someone}; you have listened.",
  "You gather what you know of {subject}.",
  "{Subject}: the name brings it back.",
];

export const RECALL_CLOSERS = [
  "It may matter to {someone}.",
  "{Someone} hopes you forget it.",
  "Against {trouble}, it may count.",
  "In {here}, it is worth more unspoken.",
  "You keep it from {someone}, in {here}.",
  "Nobody in {here} forgets such things.",
  "{Someone} knew it first.",
];

export const ADVICE_OPENERS = [
  "{Who} considers the question. “{You, }if I were you, {challenge} first.”",
  "“My advice{, you}?” {Who} does not smile. “{Challenge}. Before {nextWatch}.”",
  "{Who} answers at once. “{Challenge}{, you}, before {someone} gets to it.”",
  "“Honestly{, you}?” {Who} looks toward {elsewhere}. “{Challenge}.”",
  "{Who} takes a breath. “{Challenge} first, and watch {someone}{, you}.”",
  "“Think about {challenge}{, you},” {who} says. “{Someone} certainly is.”",
  "{Who} glances toward {someone}. “{Challenge}{, you}. There is the danger.”",
  "“Ask what {challenge} will do{, you},” says {who}, “if you do nothing.”",
];

export const TALK_OPENERS = [
  "{Who} comes at once, leaving {someone}.",
  "{Who} is already in {here}.",
  "{Who} arrives late, apologising to {someone}.",
  "{Who} listens, eyes on {someone}.",
  "{Who} meets your eyes, then {someone}’s.",
  "{Who} listens, still as {here} at {watch}.",
  "{Who} answers readily, smiling late.",
  "{Who} has rehearsed with {someone}, you suspect.",
];

export const LINES: Record<"kind" | "harsh" | "neutral", readonly string[]> = {
  neutral: [
    "“You sent for me{, you}, and {someone} saw. Ask.”",
    "“I wondered when we would talk{, you}, and of {trouble}.”",
    "“There is talk in {here}{, you}. Better from me.”",
    "“Ask plainly{, you}. {Someone} is not listening.”",
    "“All {here} wants something of you{, you}. I will say what.”",
    "“I will help{, you}, if {someone} never hears of it.”",
    "“Not here{, you}; later, in {elsewhere}, with {someone} gone.”",
  ],
  kind: [
    "“That is kind{, you}. {Here} remembers kindness.”",
    "“Neither I nor {someone} expected that{, you}.”",
    "“You make caution difficult{, you}.”",
    "“Go on so{, you}, and {someone} will be a friend.”",
    "“Thank you{, you}. {Here} will see it repaid.”",
    "“Few bother{, you}. {Someone} will notice.”",
    "“Then I owe you{, you}. Debts are honest coin.”",
  ],
  harsh: [
    "“Careful{, you}. {Someone} is watching.”",
    "“As you wish{, you}. {Someone} will remember who pushed.”",
    "“Perhaps{, you}. Or perhaps {someone} is now an enemy.”",
    "“I will obey{, you}; {someone} will not.”",
    "“{Here} will talk of this{, you}. Not kindly.”",
    "“Point made{, you}. {Someone} heard it too.”",
    "“Bold{, you}. {Someone} will call it rash.”",
  ],
};

export const ARRIVAL_OPENERS = [
  "The way to {place} is short; {someone} makes it feel long.",
  "{Place} is as {someone} left it.",
  "Before you reach {place}, {someone} knows you are coming.",
  "{Place} is busy; {someone} falls silent.",
  "{Place} is quiet; {someone} is listening.",
  "You reach {place}; {someone} is leaving it.",
  "Nobody stops you reaching {place}, though {someone} notes it.",
  "At {place}, {someone} waits on you.",
];

export const PRESENCE = [
  "{Who} is there with {someone}.",
  "You are not alone: {who} is there.",
  "Word waits: {who} wants you before {nextWatch}.",
  "{Who}, bound for {elsewhere}, passes you.",
  "At the far end, {who} talks low with {someone}.",
  "Someone murmurs that {who} was asking after you.",
  "Only {who} waits for you.",
];

export const DISCOVERY_OPENERS = [
  "You look closer at {here}, and it obliges.",
  "Looking closer at {here} pays off.",
  "A detail of {here} you had missed comes clear.",
  "It takes patience, this {watch}, but it comes.",
  "You ask around {here}, and listen.",
  "Not even {someone} notices you noticing.",
  "The answer sits in {here}, unregarded.",
  "{Someone} missed it; not you.",
];

export const REST_OPENERS = [
  "You let the {watch} pass in rest.",
  "For a while you stop; {here} lets you.",
  "Sleep comes easily in {here}.",
  "The {watch} slips by, asking nothing.",
  "You rest; {someone} leaves you be.",
  "You close your eyes on {trouble}.",
  "Rest comes in pieces, around {trouble}.",
  "You sit in {here} until your thoughts settle.",
];

export const REST_CLOSERS = [
  "When you rise, {here} has moved on.",
  "By {nextWatch}, {someone} has been busy.",
  "A note from {someone} waits when you rise.",
  "It is {nextWatch} before anyone disturbs you.",
  "You wake with an idea about {trouble}.",
  "{Someone} spent the hours less gently than you.",
  "The quiet ends in {here} with footsteps.",
];

export const WAIT_OPENERS = [
  "Waiting tells you more than {someone} would.",
  "You let the moment pass in {here}.",
  "You keep your counsel, and an eye on {someone}.",
  "You do nothing; in {here} that is a move.",
  "Patience, you find, makes {someone} talk.",
  "You hold still while {here} fidgets.",
  "You let {someone} blink first.",
  "You give nothing away; {someone} reaches anyway.",
];

export const OUTCOMES = [
  "It works, mostly; {someone} is not pleased.",
  "Nothing happens; then {someone} sends word to {elsewhere}.",
  "The first step goes well; by {nextWatch}, {someone} will make the next cost more.",
  "{Someone} disapproves. Nobody in {here} can call you idle.",
  "The effect is immediate; {someone} did not expect it.",
  "With {someone}, you have bought time; {here} is watching.",
  "A small move, but {here} keeps score, and {someone} has noted it.",
  "Something shifts; {someone} looks at you longer.",
];

export const REACTIONS = [
  "{Who} watches without a word.",
  "{Who} smiles at {other}, first to respond.",
  "“I wondered when{, you},” {who} says.",
  "“Understood,” says {who}, eyes on {other}.",
  "“{Here} will hear of it{, you},” {who} tells {other}.",
  "{Who} glances toward {other}, counting a debt.",
  "“Not what I expected{, you},” {who} admits.",
];

export const SPEECH_LINES = [
  "“If you wish it{, you}, {someone} will see it done.”",
  "“I hear you{, you}. So does {someone}.”",
  "“Strong words{, you}. {Here} will repeat them.”",
  "“I will remember it{, you}.”",
  "“You may regret that{, you}. Or {someone} may.”",
  "“Understood{, you}. I hope {someone} understood too.”",
  "“Said like that{, you}, who could argue?”",
];

export const SPEECH_REACTIONS = [
  "{Who} responds first.",
  "The words land, and {who} feels them first.",
  "No one answers; then {who} does.",
  "{Who} repeats the last of it.",
  "Heads turn in {here}; {who}'s is the first.",
  "{Who} lets the silence stretch.",
  "Nobody laughs, though {who} looks close to it.",
  "{Who} does not answer at once.",
];

export const NAME_OPENERS = [
  "“{Name},” {who} repeats, slowly, as if setting it somewhere safe.",
  "{Who} bows slightly at the name. “{Name}. I will remember it.”",
  "“{Name}.” {Who} tries the name aloud, and it seems to fit the room.",
  "The name is barely spoken before {who} has taken note of it. “{Name}, then.”",
  "{Who} smiles at that. “{Name}. Good. People here will want to know it soon enough.”",
  "“So it is {name},” says {who}. “Names travel quickly here.”",
  "{Who} says nothing for a moment, then: “{Name}. It suits you.”",
  "“{Name},” {who} echoes. “Then that is what they will call you, when they speak of you.”",
];

export const NAME_CLOSERS = [
  "By {nextWatch}, {someone} is saying the name.",
  "Somewhere in {here}, someone writes it down.",
  "It is your first free gift to {here}.",
  "It will reach {elsewhere} by {nextWatch}.",
  "{Someone} files it away.",
  "{Here} will reckon with it.",
  "{Someone} will call you by it.",
];

export const PRESSURE_LEADS = [
  "Meanwhile, {here} does nothing about {trouble}.",
  "Beneath it all, {someone} has {trouble} to think of.",
  "Before {nextWatch}, a reminder comes from {elsewhere}.",
  "This cannot wait past {nextWatch}.",
  "Not everything in {here} waits.",
  "Beyond {here}, a problem grows.",
  "Word comes from {elsewhere} at the worst moment.",
  "{Someone} keeps clear of {trouble}.",
];

export const PRESSURE_CLOSERS = [
  "{Someone} will answer for it before {nextWatch}.",
  "Each {watch} it waits costs {here} more.",
  "For now, {here} blames {someone}.",
  "{Someone} is already deciding.",
  "In {elsewhere}, it grows quietly.",
  "{Someone} gives it until {nextWatch}.",
  "Its weight settles on {here}.",
];

export const AFTERMATH_SCENES = [
  "When you pass {place} that {watch}, {someone} falls silent.",
  "Later, {place} is quiet; {someone} is listening.",
  "In {place}, the tale reaches {someone} before you.",
  "In {place}, a note in {someone}’s hand waits for you.",
  "In {place} the {watch} ends in deals {someone} denies.",
  "Word of it reaches {place} before the {watch} is out.",
  "In {place}, {someone} tells it wrong.",
  "At {place}, {someone} falls quiet.",
];

export const AFTERMATH_PEOPLE = [
  "{Who} notices, in {here}, this {watch}.",
  "{Who} hears of it from {someone}.",
  "{Who} will raise it with {someone}.",
  "It is {who} who questions {someone}, that {watch}.",
  "{Who} says nothing to {someone}, which worries you.",
  "{Who} sends word from {elsewhere}, asking to talk.",
  "{Who} and {someone} will both remember this.",
];

export const OPENING_HOOKS = [
  "{Who} is already watching you, waiting to see what you will do first.",
  "Before you can settle in, {who} steps forward with a matter that will not wait.",
  "Somewhere close by, {who} is asking for a word with you, and the asking has the sound of a test.",
];

/** How a reply tells what a fired lore entry says: a lead naming the entry, then its own sentences. */
export const LORE_LEADS = [
  "Of {title}, {here} knows this much.",
  "You remember what is said of {title}.",
  "{Title} is no rumour in {here}.",
  "What {someone} once told you of {title} comes back.",
  "{Title}: every soul in {here} knows it.",
  "You know {title} well enough.",
  "Of {title}, the story runs so.",
  "{Title} is part of this, as {someone} would remind you.",
];

/** How a reply brings back what the player settled about someone they brought into the story: a lead, a colon, the line. */
export const CARRY_LEADS = [
  "Your orders stand:",
  "In {here}, as arranged:",
  "Nothing this {watch} changes it:",
  "As you left it:",
  "Whatever {someone} thinks of it:",
  "Settled, and still settled:",
  "By your word, this {watch}:",
  "Whatever else moves in {here}:",
];

export const NAME_INVITATION = "If you mean to be known here, now is the moment to give your name.";

export interface Frame {
  openers: readonly string[];
  closers: readonly string[];
}

/** Every pair of pools that frames a paragraph. */
export const FRAMES = {
  answer: { openers: ANSWER_OPENERS, closers: ANSWER_CLOSERS },
  unknown: { openers: UNKNOWN_OPENERS, closers: UNKNOWN_CLOSERS },
  nobody: { openers: NOBODY_OPENERS, closers: NOBODY_CLOSERS },
  recall: { openers: RECALL_OPENERS, closers: RECALL_CLOSERS },
  advice: { openers: ADVICE_OPENERS, closers: RECALL_CLOSERS },
  talkNeutral: { openers: TALK_OPENERS, closers: LINES.neutral },
  talkKind: { openers: TALK_OPENERS, closers: LINES.kind },
  talkHarsh: { openers: TALK_OPENERS, closers: LINES.harsh },
  arrival: { openers: ARRIVAL_OPENERS, closers: PRESENCE },
  discovery: { openers: DISCOVERY_OPENERS, closers: RECALL_CLOSERS },
  rest: { openers: REST_OPENERS, closers: REST_CLOSERS },
  wait: { openers: WAIT_OPENERS, closers: REACTIONS },
  waitAlone: { openers: WAIT_OPENERS, closers: OUTCOMES.slice(0, 7) },
  speech: { openers: SPEECH_REACTIONS, closers: SPEECH_LINES },
  speechAlone: { openers: SPEECH_REACTIONS, closers: OUTCOMES.slice(0, 7) },
  act: { openers: OUTCOMES, closers: REACTIONS },
  name: { openers: NAME_OPENERS, closers: NAME_CLOSERS },
  pressure: { openers: PRESSURE_LEADS, closers: PRESSURE_CLOSERS },
  aftermath: { openers: AFTERMATH_SCENES, closers: AFTERMATH_PEOPLE },
} as const satisfies Record<string, Frame>;
