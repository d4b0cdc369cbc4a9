/**
 * What the offline storyteller says around the world's own sentences: the phrases that frame a
 * paragraph, the lines people speak, the choices it offers. Data only; narrator.server.ts
 * decides which to use.
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
  "It may help against {trouble}.",
  "It cost {someone} dearly to learn it.",
  "For more, try {elsewhere}.",
  "That is all, this {watch}.",
];

export const UNKNOWN_OPENERS = [
  "{Who} hesitates. “{Subject}{, you}? Not from me, not in {here}.”",
  "“{Subject}?” {Who} repeats, frowning. “I would only be guessing{, you}.”",
  "{Who} is slow to answer. “{Subject}{, you}? There my knowledge ends.”",
  "“I wish I knew{, you},” {who} says, and means it.",
  "{Who} looks past you, toward {elsewhere}. “{Subject}. Nobody has told me.”",
  "“{Subject}?” {Who} glances away. “Not my secret to hold{, you}.”",
  "“{Subject}{, you}? Ask someone braver,” {who} admits.",
  "{Who} spreads empty hands. “{Subject}? Only rumours reach {here}.”",
];

/** After "I do not know": who might, and what {who} does know of them, so the answer still gives the player a lead. */
export const UNKNOWN_CLOSERS = [
  "“Ask {other}. What I know of {other} is this: {otherFact}”",
  "“{Other} might. {otherFact}”",
  "“Try {other}, carefully. {otherFact}”",
  "“I would start with {other}. {otherFact}”",
  "“{Other} has asked too, I hear. {otherFact}”",
  "“{Other} will know you are looking. {otherFact}”",
  "“{Other} knows more than {other} admits. {otherFact}”",
];

export const NOBODY_OPENERS = [
  "You look for someone in {here} who knows about {subject}, and find no one.",
  "Nobody in {here} will speak of {subject}.",
  "The question of {subject} meets silence this {watch}.",
  "Of {subject}, you find you know less than you hoped.",
  "Whatever {subject} is, {here} keeps it to itself.",
  "About {subject}, there is only rumour from {elsewhere}.",
  "You listen for word of {subject}; {here} offers none.",
  "Of {subject}, no one in {here} speaks.",
];

export const NOBODY_CLOSERS = [
  "Perhaps {elsewhere} knows more.",
  "{Someone} might, if asked well.",
  "It will keep until {nextWatch}.",
  "The answer may not be welcome.",
  "You mean to ask again, in {elsewhere}.",
  "For now it stays a question.",
  "Sooner or later, {someone} will let it slip.",
];

export const RECALL_OPENERS = [
  "You know more about {subject} than {someone} would guess.",
  "What you know of {subject} comes back to you.",
  "You have heard enough of {subject} in {here}.",
  "What you know of {subject} is this.",
  "Memory answers before {someone} can.",
  "You need not ask {someone}; you have listened.",
  "It takes a moment to gather what you know of {subject}.",
  "The name {subject} is enough to bring it back.",
];

export const RECALL_CLOSERS = [
  "It may matter before {nextWatch}.",
  "{Someone} is counting on you forgetting it.",
  "Against {trouble}, it may count.",
  "It is worth more unspoken in {here}.",
  "You keep it from {someone}.",
  "Nobody in {here} forgets such things.",
  "It is more than you knew at {watch}'s start.",
];

export const ADVICE_OPENERS = [
  "{Who} considers the question. “{You, }if I were you, {challenge} first.”",
  "“My advice{, you}?” {Who} does not smile. “{Challenge}. Do not let it wait.”",
  "{Who} answers at once. “{Challenge}{, you}. The rest can keep.”",
  "“Honestly{, you}?” {Who} looks down. “{Challenge}, before it decides for you.”",
  "{Who} takes a breath. “Start with {challenge}{, you}.”",
  "“Think about {challenge}{, you},” {who} says. “{Someone} certainly is.”",
  "{Who} glances toward {someone}. “{Challenge}{, you}. There is the danger.”",
  "“Ask what {challenge} will do{, you},” says {who}, “if you do nothing.”",
];

export const TALK_OPENERS = [
  "{Who} comes at once and waits for you to speak.",
  "{Who} is already in {here}, and does not pretend otherwise.",
  "{Who} arrives late, with an apology to {someone}.",
  "{Who} hears you out, glancing once at {someone}.",
  "{Who} meets your eyes for a long moment.",
  "{Who} listens, still as {here} at {watch}.",
  "{Who} answers readily, the smile a beat late.",
  "{Who} has expected this, and rehearsed it, by the look of {who}.",
];

export const LINES: Record<"kind" | "harsh" | "neutral", readonly string[]> = {
  neutral: [
    "“You sent for me{, you}. Ask.”",
    "“I wondered when we would speak{, you}.”",
    "“There is talk in {here}{, you}. Better from me.”",
    "“Ask plainly{, you}. I will answer as I can.”",
    "“All {here} wants something of you{, you}. I will say what.”",
    "“I will help{, you}, if {someone} never hears of it.”",
    "“Not here{, you}. Later, in {elsewhere}.”",
  ],
  kind: [
    "“That is kind{, you}. {Here} remembers kindness.”",
    "“I did not expect that{, you}. I will not forget it.”",
    "“You make caution difficult{, you}.”",
    "“Go on like this{, you}, and {someone} will be your friend too.”",
    "“Thank you{, you}. I will repay it, asked or not.”",
    "“Few bother{, you}. {Someone} will notice.”",
    "“Then I owe you{, you}. Debts are honest coin.”",
  ],
  harsh: [
    "“Careful{, you}. Some doors stay open once kicked.”",
    "“As you wish{, you}. {Someone} will remember who pushed.”",
    "“Perhaps{, you}. Or perhaps {someone} is now an enemy.”",
    "“I will obey{, you}. Do not call it agreement.”",
    "“{Here} will talk of this{, you}. Not kindly.”",
    "“Point made{, you}. {Someone} heard it too.”",
    "“Bold{, you}. Let it also be wise.”",
  ],
};

export const ARRIVAL_OPENERS = [
  "The way to {place} is short; what waits there is not.",
  "{Place} looks as you remember it, which unsettles you.",
  "By the time you reach {place}, word has run ahead of you.",
  "{Place} is busy for the {watch}; talk falters as you come.",
  "{Place} is quiet, the quiet of listeners.",
  "You reach {place} as the {watch} settles over it.",
  "Nobody stops you on the way to {place}, though {someone} notes it.",
  "At {place}, the {watch} air seems to wait on you.",
];

export const PRESENCE = [
  "{Who} is there already, and unsurprised.",
  "You are not alone: {who} is there, and has seen you.",
  "Word waits that {who} wishes to see you before {nextWatch}.",
  "{Who} passes you on the way out, greeting you too warmly.",
  "At the far end, {who} talks low with {someone}.",
  "Someone murmurs that {who} was asking after you.",
  "Nobody waits for you. Then {who} finds you.",
];

export const DISCOVERY_OPENERS = [
  "You look closer at {here}, and it obliges.",
  "Looking closer pays off.",
  "A detail you had missed comes into focus.",
  "It takes patience, this {watch}, but it comes.",
  "You ask the right people in {here}, and listen.",
  "Nobody notices you noticing, not even {someone}.",
  "The answer is not hidden in {here}, only unregarded.",
  "It is easy to miss, unless you look for it.",
];

export const REST_OPENERS = [
  "You let the {watch} pass in rest.",
  "For a while, you stop, and {here} lets you.",
  "Sleep comes easier than you expected.",
  "The {watch} slips by, asking nothing of you.",
  "You rest, and for once {someone} leaves you be.",
  "You close your eyes on {trouble}; it is still there after.",
  "Rest comes in pieces, between thoughts of {trouble}.",
  "You sit with your thoughts until they settle.",
];

export const REST_CLOSERS = [
  "When you rise, {here} has moved on a little without you.",
  "By {nextWatch}, {someone} has been busy.",
  "When you rise, a folded message from {someone} waits.",
  "It is {nextWatch} before anyone disturbs you.",
  "You wake with one new idea about {trouble}.",
  "{Someone} spent the same hours less gently.",
  "The quiet ends, as it does in {here}, with footsteps.",
];

export const WAIT_OPENERS = [
  "The waiting tells you more than questions would.",
  "You let the moment pass, and {here} with it.",
  "You keep your counsel and your eyes open.",
  "You do nothing, visibly; in {here} that is a move.",
  "Patience, you find, makes {someone} talk.",
  "You hold still while {here} fidgets.",
  "You let {someone} blink first.",
  "You give nothing away, and watch who reaches for it.",
];

export const OUTCOMES = [
  "It works, mostly, though not everyone in {here} is pleased.",
  "Nothing happens. Then word travels toward {elsewhere}, faster than you like.",
  "The first step goes smoothly; the next, before {nextWatch}, will cost more.",
  "Not all {here} approves. Nobody can say you did nothing.",
  "The effect is immediate, and not what {someone} expected.",
  "You have bought a little time and much attention in {here}.",
  "A small move, but {here} keeps score, and {someone} has noted it.",
  "Something shifts; {someone} looks at you a half-second longer.",
];

export const REACTIONS = [
  "{Who} watches without a word.",
  "{Who} is the first to respond: a pause, then a careful smile.",
  "“I wondered when you would try that{, you},” {who} says.",
  "“Then we understand each other,” says {who}, eyes on {other}.",
  "“{Here} will hear of this by {nextWatch}{, you},” {who} observes.",
  "{Who} glances toward {other}, counting a debt.",
  "“Not what I expected{, you},” {who} admits.",
];

export const SPEECH_LINES = [
  "“If that is your wish{, you}, it will be done.”",
  "“I hear you{, you}. So does {someone}.”",
  "“Strong words{, you}. {Here} will repeat them.”",
  "“I will remember you said so{, you}.”",
  "“You may regret that{, you}. Or {someone} may.”",
  "“Understood{, you}. I hope {someone} understood too.”",
  "“Said like that{, you}, who could argue?”",
];

export const SPEECH_REACTIONS = [
  "{Who} is the first to respond.",
  "The words land, and {who} feels them first.",
  "For a moment no one answers. Then {who} does.",
  "{Who} repeats the last of it quietly.",
  "Heads turn in {here}; {who}'s is the first.",
  "{Who} lets the silence stretch.",
  "Nobody laughs, though {who} looks close to it.",
  "{Who} does not answer at once, which is an answer.",
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
  "By {nextWatch}, the name is in a dozen mouths.",
  "Somewhere in {here}, someone writes it down.",
  "It is the first thing you have given {here} for free.",
  "It will be spoken in {elsewhere} before long.",
  "{Someone} files it away for later.",
  "{Here} will have to reckon with it.",
  "Whatever comes next will call you by it.",
];

export const PRESSURE_LEADS = [
  "Meanwhile, {trouble} does not wait.",
  "Beneath it all, {trouble} keeps its own time.",
  "Before {nextWatch}, a reminder comes from {elsewhere}.",
  "This cannot be put off forever.",
  "Not everything waits on you.",
  "Beyond {here}, a problem grows.",
  "Word comes from {elsewhere} at the worst moment.",
  "And there is still the matter {someone} avoids.",
];

export const PRESSURE_CLOSERS = [
  "Someone will answer for it before long.",
  "Every {watch} it waits, it costs more.",
  "Nobody has named you with it. Yet.",
  "{Someone} is already deciding what to do.",
  "It grows quietly, then all at once.",
  "There is still time. Not much.",
  "You feel its weight on the days ahead.",
];

export const AFTERMATH_SCENES = [
  "When you next pass through {place}, talk falters as you approach.",
  "Later, {place} is quiet, the quiet of listeners.",
  "In {place}, the story has arrived before you, improved.",
  "In {place}, an unsigned note waits where only you would look.",
  "In {place} the {watch} ends with deals no one admits to.",
  "Word of it reaches {place} before the {watch} is out.",
  "In {place}, someone tells the story wrong.",
  "At {place}, talk stops when you come near.",
];

export const AFTERMATH_PEOPLE = [
  "{Who} is among those who notice.",
  "{Who} hears of it before you have finished.",
  "{Who}, for one, will not let it pass.",
  "It is {who} who asks the most questions.",
  "{Who} says nothing, which worries you more.",
  "{Who} sends word asking to discuss it.",
  "{Who} will remember this.",
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

// Choices, each told the way the player would type it (imperative, no Markdown).
export const TALK_CHOICES = [
  "Invite {person} to talk privately in {here}.",
  "Send {person} a discreet note about {trouble}.",
  "Offer {person} a favour, to be repaid later.",
  "Ask {person} what {someone} wants from you.",
  "Keep {person} close, and watch {someone}.",
  "Confront {person} about {trouble}.",
  "Thank {person} in front of {someone}.",
];
export const ASK_CHOICES = ["Ask {person} about {topic}.", "Ask {person} for the truth about {topic}."];
export const ASK_TROUBLE_CHOICES = ["Ask {person} who gains from {trouble}.", "Ask {person} what can be done about {trouble}."];
export const PLACE_CHOICES = [
  "Go to {place} and see who is there.",
  "Withdraw to {place} to think.",
  "Make an appearance at {place}, so {someone} sees you.",
  "Slip away to {place} before {someone} can stop you.",
];
export const LOOK_CHOICES = ["Watch who comes and goes in {place}.", "Search {place} for anything out of place."];
export const GROUP_CHOICES = ["Sound out {group} quietly.", "Make a gesture {group} cannot ignore.", "Find out what {group} want."];
export const CHALLENGE_CHOICES = [
  "Deal with {challenge} now.",
  "Ask for a full account of {challenge}.",
  "Hand {challenge}, and its blame, to {someone}.",
  "Spend what it takes against {challenge}.",
];
export const STEADY_CHOICES = [
  "Press your advantage before {someone} does.",
  "Wait, and let {someone} move first.",
  "Rest a while in {here}, and see what settles.",
  "Go over what you know of {trouble}.",
];

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
