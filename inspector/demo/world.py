"""The demo world: 灯岭镇, a lantern-lit mountain town, and the prose generators that play it.

Everything is Chinese (locale zh-CN) because the point of the demo is to look like a real Covel
save: CJK text changes token estimates, UTF-8 sizes and cache arithmetic compared with English.
All randomness comes from the ``random.Random`` the caller passes in, so a seed fixes every word.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

WORLD_ID = "lantern-ridge"
WORLD_NAME = "灯岭镇"
WORLD_DESCRIPTION = "群山褶皱里的一座灯火小镇：每盏灯都收着一段记忆，每到夜里雾潮漫上山道。"
WORLD_TAGS = ["奇幻", "山镇", "悬疑", "慢节奏", "中文"]

WORLD_LORE = """# 灯岭镇

灯岭镇坐落在苍岭山脉的第三道褶皱里，三面是陡峭的石壁，只有一条盘山古道通往山下的渡口。镇子依山而建，青石台阶一层叠着一层，屋檐挨着屋檐，从山脚望上去，像一座被人随手堆起的灯塔。

## 灯与记忆

镇上的灯不是寻常的灯。灯芯用北坡的“忆草”搓成，灯油取自山腹里渗出的琥珀色“岭脂”。点燃之后，灯会慢慢收下照亮之处发生的事：说过的话、落下的泪、没能说出口的犹豫。熄灯之后，这些记忆沉在灯油里，只有守灯人能把它们重新“读”出来。

因此镇上有一条老规矩：不许在别人的灯下说谎。说谎的人，灯会替他记着。

## 雾潮

每到入夜，山谷底部会涨起一层乳白色的雾，镇上的人叫它“雾潮”。雾潮沿着台阶一级一级往上爬，通常在子时前后漫过雾桥，在鸡鸣前退去。雾里听得见旧日的声音，也有人说见过已经离开的人。没有灯的人不该在雾潮里行走——迷路的人第二天会出现在旧矿口，什么都不记得。

## 守灯会

守灯会是镇上最古老的行会，负责换芯、添油、巡夜，也替镇民保管“寄灯”（托付给行会保存的记忆之灯）。现任会首沈青灯年纪不大，却是三代以来唯一能同时读三盏灯的人。守灯会的总堂设在灯塔巷尽头，门口挂着一盏从不熄灭的“长明灯”。

## 地方

- 灯塔巷：镇子最高处，守灯会总堂所在，巷子两侧挂满寄灯。
- 听雨茶馆：老周开的茶馆，屋顶有一处故意留着的漏，下雨天整个茶馆都是雨声。
- 北坡药圃：阿箬照看的药圃，种着忆草、宁神花和一株据说三百年的老梅。
- 雾桥：横跨断涧的石拱桥，雾潮最先漫过的地方。
- 旧矿口：废弃多年的岭脂矿，矿道深处据说还有一座没人敢进的古冢。
- 山神庙：半山腰的小庙，供着一尊看不清面目的石像，香火时断时续。
- 铁匠铺：石头当学徒的地方，也打灯架、灯钩和巡夜用的铜铃。
- 半坡客栈：白姨经营的客栈，外乡人几乎都住在这里。

## 近来的异事

入秋以来，镇上接连有寄灯自己熄灭。熄灭的灯里，记忆并没有沉下去，而是不见了。守灯会对外只说是灯油受潮，但巡夜的人都注意到，雾潮一天比一天涨得早。"""

PLACES = ["灯塔巷", "听雨茶馆", "北坡药圃", "雾桥", "旧矿口", "山神庙", "铁匠铺", "半坡客栈", "山下渡口", "集市口"]


@dataclass(frozen=True)
class Npc:
    name: str
    kind: str
    description: str
    trait: str
    speech: tuple[str, ...]


NPCS = [
    Npc("沈青灯", "npc", "守灯会会首，二十七岁，能同时读三盏灯", "沉静、克制、对谎言极其敏感",
        ("灯不会骗人，骗人的是看灯的人。", "你今晚最好别离开灯太远。", "这盏灯里少了一段，少得很干净。")),
    Npc("老周", "npc", "听雨茶馆掌柜，知道镇上一半的闲话", "健谈、爱打圆场、偶尔说漏嘴",
        ("喝口热茶，雾潮还早着呢。", "这话你可别说是我讲的。", "二十年前也有过这么一回，后来……算了。")),
    Npc("阿箬", "npc", "北坡药圃的采药姑娘，十六岁", "胆大、好奇、说话直来直去",
        ("忆草今年长得不对劲，叶子背面全是白的。", "你要是敢去旧矿口，带上我。", "我才不怕雾潮。")),
    Npc("顾长风", "npc", "三个月前来到镇上的游侠，住在半坡客栈", "寡言、警惕、似乎在找什么人",
        ("我只是路过。", "雾里的声音，别回答。", "你见过一盏没有灯芯却亮着的灯吗？")),
    Npc("白姨", "npc", "半坡客栈老板娘，镇上最会做菌子汤的人", "热心、精明、护短",
        ("先吃饭，天大的事吃完再说。", "那间房我可没租给外人。", "客人的事，我不多问。")),
    Npc("石头", "npc", "铁匠铺的学徒，力气大，心思细", "憨厚、手巧、崇拜顾长风",
        ("这铜铃我打了三遍，声音才对。", "师父说灯钩要朝东挂。", "我看见有人半夜往雾桥那边去了。")),
    Npc("雾婆", "npc", "住在雾桥下的独居老妇，没人知道她多大岁数", "神秘、说话颠三倒四却总说中",
        ("灯灭了，人就回来了。", "你身上有两个人的影子。", "去问山神，山神记得。")),
]


@dataclass(frozen=True)
class PlayerCharacter:
    name: str
    background: str
    goal: str
    fields: dict = field(default_factory=dict)


PLAYERS = [
    PlayerCharacter("林晚照", "山下渡口来的抄书人，替人誊写家谱，随身带一盏旧灯", "弄清母亲留下的那盏寄灯为何熄灭",
                    {"年龄": 24, "身份": "抄书人", "随身物品": ["旧灯", "毛笔", "半本家谱"], "状态": "健康"}),
    PlayerCharacter("陆既明", "被守灯会临时雇来巡夜的外乡剑客", "查清雾潮为何一天天提前",
                    {"年龄": 29, "身份": "巡夜人", "随身物品": ["铜铃", "短剑", "火折子"], "状态": "健康"}),
    PlayerCharacter("许小满", "白姨的远房侄女，刚来客栈帮工", "找到三年前在雾里走失的哥哥",
                    {"年龄": 17, "身份": "客栈帮工", "随身物品": ["竹篮", "银簪", "哥哥的信"], "状态": "健康"}),
    PlayerCharacter("温砚", "游方郎中，被阿箬请来看忆草的病", "治好忆草，顺便打听一味失传的药",
                    {"年龄": 35, "身份": "郎中", "随身物品": ["药箱", "银针", "旧医书"], "状态": "健康"}),
]

# --- runtime bodies (PLUGIN.md / RUNTIME.md text) --------------------------------------------

NARRATOR_BODY_V1 = """你是《灯岭镇》的叙事者。用第二人称讲述玩家角色的经历，语气克制、细腻，带一点山间的凉意。

写作要求：
- 每次回复写三到六段，每段不超过一百五十字。
- 只描写玩家角色能看到、听到、感觉到的东西；不要替玩家做决定，不要替玩家说话。
- 非玩家角色要有自己的动机和口吻，对话用中文引号。
- 雾潮、寄灯和记忆是这个世界的核心，合适时让它们推动情节。
- 结尾停在一个能让玩家行动的地方，不要总结，不要提问列表。"""

# Turn 7 edits the narrator's body: the runtime body sits right after the preamble, so every
# byte behind it changes and the provider prefix cache misses for that turn.
NARRATOR_BODY_V2 = NARRATOR_BODY_V1 + """
- 新增：描写雾潮时，至少写出一种声音和一种温度的变化。"""

GUIDE_BODY = """你是《灯岭镇》的剧情向导。在叙事者动笔之前，读一读最近的对话和历史摘要，给叙事者一条简短的提示：
- 当前场景里最值得推进的一条线索；
- 哪个非玩家角色应该出场或回应；
- 需要避免的重复。
只写提示本身，三行以内，不要写正文。完成后调用 runtime-done。"""

TRACKER_BODY = """你负责维护《灯岭镇》的角色档案。读本回合的故事正文，找出新出现的角色或已有角色的新变化。
- 新角色：先用 character-get 确认档案里没有，再用 character-upsert 建档。
- 已有角色：只在外貌、身份、关系或状态确实变化时更新。
- 不要为路人、动物或只被提到名字的人建档。
全部处理完后调用 runtime-done，附一句话说明改了什么。"""

DIMENSION_BODY = """你是世界维度追踪器。根据本回合的故事正文，更新 <dimension-rules> 里声明的世界维度。
- 只修改正文明确导致变化的维度，其他维度保持原值。
- 时间按正文推进，雾潮高度按规则换算。
用 dimension-update 工具一次提交所有变化。"""

AFFINITY_BODY = """你记录玩家角色与非玩家角色之间的好感变化。读本回合的故事正文：
- 对每个与玩家有实质互动的角色，给出 -3 到 +3 的变化和一句理由；
- 没有互动的角色不要写。
输出格式：每行“角色名 变化 理由”。完成后调用 runtime-done。"""

DIMENSION_RULES = """<dimension-rules>
<dimension id="time-of-day">
rule: 一天分为 卯时、辰时、午时、申时、酉时、戌时、亥时、子时 八段；每回合最多推进两段。
schema: {"type":"string","enum":["卯时","辰时","午时","申时","酉时","戌时","亥时","子时"]}
</dimension>
<dimension id="fog-tide">
rule: 雾潮高度 0–10，0 为无雾，10 为漫过灯塔巷。酉时后每段上涨 1–2，卯时退回 0。
schema: {"type":"integer","minimum":0,"maximum":10}
</dimension>
<dimension id="extinguished-lamps">
rule: 本季熄灭的寄灯数量，只增不减。
schema: {"type":"integer","minimum":0}
</dimension>
<dimension id="guild-trust">
rule: 守灯会对玩家的信任，-5 到 5。玩家说谎被灯记下时减 2。
schema: {"type":"integer","minimum":-5,"maximum":5}
</dimension>
</dimension-rules>"""

STATIC_DIMENSIONS = """<world-dimensions>
季节：深秋
地区：苍岭山脉·灯岭镇
Values are complete unless cut with …
</world-dimensions>"""

CHARACTER_NOTES = """<character-notes>
以下是主要角色的扮演笔记，供叙事时保持口吻一致。

## 沈青灯
说话短，几乎不用语气词。紧张时会下意识去摸腰间的灯钩。从不直接说“不知道”，而是说“灯里没有”。

## 老周
喜欢用“我跟你讲”开头，讲到一半会突然压低声音。对二十年前的事讳莫如深。

## 阿箬
称呼所有比她大的人为“哥”“姐”，包括雾婆。说到药草时语速会变快。

## 顾长风
回答问题前总要停一拍。左手从不离开剑柄，睡觉时也一样。

## 雾婆
说话像在和另一个人对答，常常答非所问，但每句都有下文。
</character-notes>"""

LORE_BEFORE = [
    "【世界书·寄灯】寄灯是镇民托付给守灯会保存的记忆之灯，灯座上刻着寄存人的名字和日期。按规矩，寄灯只能由寄存人本人或其血亲取回。",
    "【世界书·岭脂】岭脂是从山腹岩缝渗出的琥珀色油脂，燃烧时几乎无烟，带淡淡的松香。旧矿停采后，镇上的岭脂只够再用两年。",
]
LORE_AFTER = [
    "【世界书·规矩】在别人的灯下说谎是灯岭镇最重的忌讳；被灯记下的谎言，守灯会有权当众读出。",
]
LORE_AT_DEPTH = "【世界书·雾潮提醒】雾潮中的声音会模仿熟人，角色若回应，会被引向旧矿口。叙事时保持这一规则。"

EVENT_CATALOG = """- lamp-extinguished: 一盏寄灯熄灭（参数：lampOwner, place）
- fog-rises: 雾潮上涨到新的高度（参数：level）
- memory-read: 有人读出了一盏灯里的记忆（参数：reader, lampOwner）"""

# --- prose generators -----------------------------------------------------------------------

_TIMES = ["天刚蒙蒙亮", "晨雾未散的时候", "正午的日头底下", "午后", "日头偏西时", "酉时前后", "掌灯时分", "夜深之后", "雾潮涨起来的时候", "鸡叫头遍之前"]
_WEATHER = ["山风带着松脂的味道", "细雨落在青石台阶上", "云压得很低", "天色干净得发蓝", "远处有闷雷滚过", "空气里全是潮湿的土腥味", "落叶一阵一阵地往下掉", "檐角的铜铃叮叮作响"]
_SENSES = [
    "灯油燃烧的松香味淡淡地飘过来",
    "脚下的石阶被磨得发亮，踩上去有点滑",
    "不知哪户人家在熬菌子汤，香气顺着巷子往上爬",
    "雾里传来一声很轻的咳嗽，又很快没了",
    "风把灯罩吹得轻轻摇晃，影子在墙上拉长又缩短",
    "远处的溪水声忽大忽小，像有人在调弦",
    "指尖碰到灯座，冰凉得不像秋天",
    "一只灰猫从屋脊上跳下来，头也不回地钻进了雾里",
    "铜铃声从山腰一路响下来，是巡夜的人在换班",
    "墙根的青苔湿漉漉的，踩上去几乎没有声音",
    "空气里有一丝焦味，像是灯芯烧到了尽头",
    "头顶的寄灯一盏接一盏地晃，像在低声交谈",
]
_ACTIONS = [
    "{npc}停下手里的活，抬眼看了你一会儿",
    "{npc}把一盏没点的灯推到你面前，没有解释",
    "{npc}压低声音，示意你跟着走到{place}的角落",
    "{npc}的目光越过你的肩膀，落在{place}的方向",
    "{npc}犹豫了很久，才把那句话说出口",
    "{npc}笑了一下，笑意却没到眼底",
    "{npc}从袖子里摸出一张揉皱的纸条，塞进你手里",
    "{npc}转身要走，又停下来回头看你",
    "{npc}把灯举高，让光落在你的脸上",
    "{npc}轻轻叹了口气，像是早就料到你会来",
]
_DISCOVERIES = [
    "灯座底下刻着一个你没见过的名字，笔画很新",
    "灯油表面浮着一层极细的白霜，像是从里面冻住的",
    "纸条上只有半句话：“别让她在雾里……”",
    "石阶的缝隙里卡着一枚铜钱，正面磨平了，背面刻着一盏灯",
    "那盏寄灯明明熄了，灯芯却还是温的",
    "墙上的影子比屋里的人多出一个",
    "地上有一串湿脚印，一直通向{place}，却没有回来的那一串",
    "灯罩内侧有人用指甲划了三道痕，像是在数日子",
    "账册上有一页被整齐地裁走了，裁口上还沾着岭脂",
    "药篓里的忆草叶子背面全是白的，一碰就碎",
]
_CLOSERS = [
    "远处，雾潮已经漫过了雾桥的第一级台阶。",
    "你手里的灯轻轻跳了一下，像是在提醒你什么。",
    "{npc}的声音从身后传来：“{line}”",
    "巷子尽头，有一盏灯无声地熄灭了。",
    "山神庙的钟响了一声，比平常早了半个时辰。",
    "风停了。整个{place}安静得只剩下你的呼吸。",
    "你忽然意识到，这条路你好像走过，在梦里。",
]
_PLAYER_ACTS = [
    "我走到{npc}身边，低声问：“{question}”",
    "我把旧灯举起来，仔细看灯座下面的刻字。",
    "我跟着{npc}去{place}看看。",
    "我不动声色地观察{npc}的反应，然后问{topic}的事。",
    "我决定去{place}，趁雾潮还没涨起来。",
    "我把刚才看到的东西告诉{npc}，看看{npc_short}怎么说。",
    "我点亮随身的灯，沿着石阶往{place}走。",
    "我在{place}找个角落坐下，听周围的人都在聊什么。",
    "我问{npc}：“{question}”然后把那枚铜钱放在桌上。",
    "我伸手去碰那盏熄灭的寄灯。",
    "我拦住{npc}：“等一下，你刚才说的{topic}是什么意思？”",
    "我回头看了一眼雾里，然后加快脚步。",
]
_QUESTIONS = [
    "这盏灯是谁寄存的？", "雾潮今天为什么涨得这么早？", "二十年前到底发生了什么？", "你昨晚去了哪里？",
    "旧矿口那边最近有人去过吗？", "熄灭的灯里，记忆会去哪儿？", "你认识我母亲吗？", "山神庙的钟是谁敲的？",
]
_TOPICS = ["寄灯", "雾潮", "旧矿口", "长明灯", "忆草", "二十年前", "山神庙的钟", "那张纸条"]


def _fill(template: str, rng: random.Random, npc: Npc, place: str) -> str:
    return template.format(
        npc=npc.name,
        npc_short="她" if npc.name in ("沈青灯", "阿箬", "白姨", "雾婆") else "他",
        place=place,
        line=rng.choice(npc.speech),
        question=rng.choice(_QUESTIONS),
        topic=rng.choice(_TOPICS),
    )


@dataclass
class Scene:
    """What the current turn is about; shared by every runtime's output for consistency."""

    npc: Npc
    place: str
    time: str
    second: Npc


def new_scene(rng: random.Random) -> Scene:
    first, second = rng.sample(NPCS, 2)
    return Scene(first, rng.choice(PLACES), rng.choice(_TIMES), second)


def player_input(rng: random.Random, scene: Scene) -> str:
    return _fill(rng.choice(_PLAYER_ACTS), rng, scene.npc, scene.place)


def story_reply(rng: random.Random, scene: Scene, scale: float) -> str:
    """Three to six paragraphs of narration; ``scale`` stretches paragraph count and length."""
    paragraphs = []
    used: set[str] = set()
    count = max(2, round(rng.randint(3, 6) * scale))
    for i in range(count):
        sentences = []
        if i == 0:
            sentences.append(f"{scene.time}，{rng.choice(_WEATHER)}。你来到{scene.place}")
        for _ in range(max(1, round(rng.randint(2, 4) * min(scale, 3.0)))):
            # A few draws per slot keep one reply from saying the same sentence twice; at large
            # scales the pools run dry and repeats become acceptable filler.
            for _try in range(4):
                kind = rng.random()
                who = scene.npc if rng.random() < 0.7 else scene.second
                if kind < 0.35:
                    sentence = rng.choice(_SENSES)
                elif kind < 0.7:
                    sentence = _fill(rng.choice(_ACTIONS), rng, who, scene.place)
                elif kind < 0.85:
                    sentence = _fill(rng.choice(_DISCOVERIES), rng, who, scene.place)
                else:
                    sentence = f"“{rng.choice(who.speech)}”{who.name}说"
                if sentence not in used:
                    break
            used.add(sentence)
            sentences.append(sentence)
        paragraphs.append("。".join(sentences) + "。")
    paragraphs.append(_fill(rng.choice(_CLOSERS), rng, scene.second, scene.place))
    return "\n\n".join(paragraphs)


def guide_hint(rng: random.Random, scene: Scene) -> str:
    return "\n".join(
        [
            f"线索：{rng.choice(_TOPICS)}——让玩家在{scene.place}察觉到一处细节。",
            f"出场：{scene.npc.name}（{scene.npc.trait.split('、')[0]}），可让{scene.second.name}在远处露面。",
            f"避免：{rng.choice(['重复描写雾桥', '再次让老周讲旧事', '直接揭示熄灯的原因', '连续两回合都以灯熄灭收尾'])}。",
        ]
    )


def affinity_lines(rng: random.Random, scene: Scene) -> str:
    reasons = ["玩家认真听完了对方的话", "玩家没有追问不愿说的事", "玩家当面质疑了对方", "玩家帮忙提了灯", "玩家隐瞒了看到的东西", "玩家记得上次的约定"]
    lines = []
    for npc in (scene.npc, scene.second):
        delta = rng.choice([-1, 1, 1, 2, 2, 3, -2])
        lines.append(f"{npc.name} {delta:+d} {rng.choice(reasons)}")
    return "\n".join(lines)


def summary_text(rng: random.Random, scenes: list[Scene], turns: int) -> str:
    places = "、".join(dict.fromkeys(s.place for s in scenes))
    people = "、".join(dict.fromkeys(s.npc.name for s in scenes))
    events = rng.sample(
        [
            "玩家发现一盏熄灭的寄灯仍带余温",
            "守灯会对外隐瞒了熄灯的真正数量",
            "雾婆暗示“灯灭了，人就回来了”",
            "顾长风在找一盏没有灯芯却亮着的灯",
            "阿箬发现忆草叶背发白",
            "老周提起二十年前的一次雾潮又把话咽了回去",
            "铁匠铺的石头看见有人半夜去雾桥",
            "山神庙的钟提前敲响",
        ],
        3,
    )
    return (
        f"前 {turns} 个回合里，玩家先后到过{places}，与{people}有过往来。"
        + "；".join(events)
        + "。雾潮一天比一天涨得早，玩家手中的线索指向旧矿口。"
    )
