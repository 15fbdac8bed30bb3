<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
  <context>
    <name>App</name>
    <message>
      <source>Preparing the demo database…</source>
      <translation>正在准备演示数据库…</translation>
    </message>
    <message>
      <source>Cannot open the demo</source>
      <translation>无法打开演示数据库</translation>
    </message>
  </context>
  <context>
    <name>Overview</name>
    <message>
      <source>yes</source>
      <translation>是</translation>
    </message>
    <message>
      <source>no</source>
      <translation>否</translation>
    </message>
    <message>
      <source>No database open</source>
      <translation>未打开数据库</translation>
    </message>
    <message>
      <source>Open a covel.db with File → Open (Ctrl+O), drop one on this window, or pick one from File → Open Recent.</source>
      <translation>通过“文件 → 打开”（Ctrl+O）打开 covel.db，或将文件拖放到此窗口，或从“文件 → 最近打开”中选择。</translation>
    </message>
    <message>
      <source>Select a session, turn, runtime or request in the navigator to see its details.</source>
      <translation>在导航栏中选择会话、轮次、运行时或请求以查看详情。</translation>
    </message>
    <message>
      <source>File</source>
      <translation>文件</translation>
    </message>
    <message>
      <source>Opened</source>
      <translation>打开方式</translation>
    </message>
    <message>
      <source>Sessions</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Turns</source>
      <translation>轮次</translation>
    </message>
    <message>
      <source>Model requests</source>
      <translation>模型请求</translation>
    </message>
    <message>
      <source>Session</source>
      <translation>会话</translation>
    </message>
    <message>
      <source>Schema note</source>
      <translation>结构说明</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>轮次</translation>
    </message>
    <message>
      <source>Session id</source>
      <translation>会话 ID</translation>
    </message>
    <message>
      <source>World</source>
      <translation>世界</translation>
    </message>
    <message>
      <source>World id</source>
      <translation>世界 ID</translation>
    </message>
    <message>
      <source>Locale</source>
      <translation>语言区域</translation>
    </message>
    <message>
      <source>Phase</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Completed player turns</source>
      <translation>已完成的玩家轮次</translation>
    </message>
    <message>
      <source>Trace events</source>
      <translation>追踪事件</translation>
    </message>
    <message>
      <source>Created</source>
      <translation>创建时间</translation>
    </message>
    <message>
      <source>Updated</source>
      <translation>更新时间</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Turn {number}</source>
      <translation>第 {number} 轮</translation>
    </message>
    <message>
      <source>Turn id</source>
      <translation>轮次 ID</translation>
    </message>
    <message>
      <source>Trace id</source>
      <translation>追踪 ID</translation>
    </message>
    <message>
      <source>Origin</source>
      <translation>来源</translation>
    </message>
    <message>
      <source>Commit status</source>
      <translation>提交状态</translation>
    </message>
    <message>
      <source>Started</source>
      <translation>开始时间</translation>
    </message>
    <message>
      <source>Ended</source>
      <translation>结束时间</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Retry of</source>
      <translation>重试自</translation>
    </message>
    <message>
      <source>Retry scope</source>
      <translation>重试范围</translation>
    </message>
    <message>
      <source>Runtimes</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>Model request</source>
      <translation>模型请求</translation>
    </message>
    <message>
      <source>Runtime id</source>
      <translation>运行时 ID</translation>
    </message>
    <message>
      <source>Plugin</source>
      <translation>插件</translation>
    </message>
    <message>
      <source>Stage</source>
      <translation>阶段</translation>
    </message>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Cached tokens</source>
      <translation>缓存 token</translation>
    </message>
    <message>
      <source>Event id</source>
      <translation>事件 ID</translation>
    </message>
    <message>
      <source>Tool-loop step</source>
      <translation>工具循环步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试次数</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Provider</source>
      <translation>提供商</translation>
    </message>
    <message>
      <source>Protocol</source>
      <translation>协议</translation>
    </message>
    <message>
      <source>Transport attempts</source>
      <translation>传输尝试次数</translation>
    </message>
    <message>
      <source>Response event</source>
      <translation>响应事件</translation>
    </message>
    <message>
      <source>Finish reason</source>
      <translation>结束原因</translation>
    </message>
    <message>
      <source>Output tokens</source>
      <translation>输出 token</translation>
    </message>
    <message>
      <source>Cache-write tokens</source>
      <translation>缓存写入 token</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Open…</source>
      <translation>打开(&amp;O)…</translation>
    </message>
    <message>
      <source>Open a Covel database (covel.db)</source>
      <translation>打开 Covel 数据库（covel.db）</translation>
    </message>
    <message>
      <source>Open &amp;Recent</source>
      <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
      <source>&amp;Reload</source>
      <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
      <source>Read the database again, keeping the selection</source>
      <translation>重新读取数据库，并保留当前选择</translation>
    </message>
    <message>
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <source>&amp;Edit</source>
      <translation>编辑(&amp;E)</translation>
    </message>
    <message>
      <source>&amp;Find…</source>
      <translation>查找(&amp;F)…</translation>
    </message>
    <message>
      <source>Search the prompts of all requests</source>
      <translation>在所有请求的提示词中搜索</translation>
    </message>
    <message>
      <source>&amp;Clear Filters</source>
      <translation>清除筛选(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>&amp;Collapse All</source>
      <translation>全部折叠(&amp;C)</translation>
    </message>
    <message>
      <source>Show &amp;Overview</source>
      <translation>显示概览(&amp;O)</translation>
    </message>
    <message>
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <source>&amp;About Prompt Inspector</source>
      <translation>关于 Prompt Inspector(&amp;A)</translation>
    </message>
    <message>
      <source>About &amp;Qt</source>
      <translation>关于 &amp;Qt</translation>
    </message>
    <message>
      <source>Open Covel Database</source>
      <translation>打开 Covel 数据库</translation>
    </message>
    <message>
      <source>SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)</source>
      <translation>SQLite 数据库 (*.db *.sqlite *.sqlite3);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Cannot open database</source>
      <translation>无法打开数据库</translation>
    </message>
    <message>
      <source>About Prompt Inspector</source>
      <translation>关于 Prompt Inspector</translation>
    </message>
    <message>
      <source>read-only</source>
      <translation>只读</translation>
    </message>
    <message>
      <source>read-only snapshot (immutable)</source>
      <translation>只读快照（不可变）</translation>
    </message>
    <message>
      <source>No recent files</source>
      <translation>没有最近打开的文件</translation>
    </message>
    <message>
      <source>Clear Recent Files</source>
      <translation>清除最近文件</translation>
    </message>
    <message>
      <source>The previous selection is no longer in the database</source>
      <translation>之前选择的项目已不在数据库中</translation>
    </message>
    <message>
      <source>Cannot read the database</source>
      <translation>无法读取数据库</translation>
    </message>
    <message>
      <source>Opening {name}…</source>
      <translation>正在打开 {name}…</translation>
    </message>
    <message>
      <source>{name} — {app}</source>
      <translation>{name} — {app}</translation>
    </message>
    <message>
      <source>{sessions} sessions · {turns} turns · {requests} requests</source>
      <translation>{sessions} 个会话 · {turns} 个轮次 · {requests} 个请求</translation>
    </message>
    <message>
      <source>Opened {name}</source>
      <translation>已打开 {name}</translation>
    </message>
    <message>
      <source>Could not open {name}</source>
      <translation>无法打开 {name}</translation>
    </message>
    <message>
      <source>Opening…</source>
      <translation>正在打开…</translation>
    </message>
    <message>
      <source>&lt;h3&gt;Prompt Inspector {version}&lt;/h3&gt;&lt;p&gt;See exactly what the Covel role-play engine sent to a model, part by part, and why the prompt cache hit or missed.&lt;/p&gt;&lt;p&gt;Reads covel.db read-only. Qt {qt}, PySide6.&lt;/p&gt;</source>
      <translation>&lt;h3&gt;Prompt Inspector {version}&lt;/h3&gt;&lt;p&gt;逐段查看 Covel 角色扮演引擎发送给模型的确切内容，以及提示词缓存命中或未命中的原因。&lt;/p&gt;&lt;p&gt;以只读方式读取 covel.db。Qt {qt}，PySide6。&lt;/p&gt;</translation>
    </message>
    <message>
      <source>Removed {count} missing file(s) from the recent list: {names}</source>
      <translation>已从最近文件列表中移除 {count} 个不存在的文件：{names}</translation>
    </message>
    <message>
      <source>Loading…</source>
      <translation>正在加载…</translation>
    </message>
    <message>
      <source>Working…</source>
      <translation>正在处理…</translation>
    </message>
    <message>
      <source>{path} could not be opened.</source>
      <translation>无法打开 {path}。</translation>
    </message>
  </context>
  <context>
    <name>Navigator</name>
    <message>
      <source>{m} min {s} s</source>
      <translation>{m} 分 {s} 秒</translation>
    </message>
    <message>
      <source>Search prompts…</source>
      <translation>搜索提示词…</translation>
    </message>
    <message>
      <source>Find requests whose prompt contains this text (Ctrl+F)</source>
      <translation>查找提示词中包含此文本的请求（Ctrl+F）</translation>
    </message>
    <message>
      <source>Show only requests of this runtime</source>
      <translation>只显示此运行时的请求</translation>
    </message>
    <message>
      <source>Show only requests sent to this model</source>
      <translation>只显示发送给此模型的请求</translation>
    </message>
    <message>
      <source>{ms} ms</source>
      <translation>{ms} 毫秒</translation>
    </message>
    <message>
      <source>{s:.2f} s</source>
      <translation>{s:.2f} 秒</translation>
    </message>
    <message>
      <source>Request event {id}</source>
      <translation>请求事件 {id}</translation>
    </message>
    <message>
      <source>All runtimes</source>
      <translation>全部运行时</translation>
    </message>
    <message>
      <source>All models</source>
      <translation>全部模型</translation>
    </message>
    <message>
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <source>Detail</source>
      <translation>详情</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Cached</source>
      <translation>已缓存</translation>
    </message>
    <message>
      <source>Duration</source>
      <translation>耗时</translation>
    </message>
    <message>
      <source>Session, turn number, runtime id, or tool-loop step and attempt</source>
      <translation>会话、轮次编号、运行时 ID，或工具循环步骤与尝试次数</translation>
    </message>
    <message>
      <source>World, origin and status, stage, or model and provider</source>
      <translation>世界、来源与状态、阶段，或模型与提供商</translation>
    </message>
    <message>
      <source>Input tokens reported by the provider (cache reads and writes included)</source>
      <translation>提供商报告的输入 token（含缓存读取与写入）</translation>
    </message>
    <message>
      <source>Input tokens the provider served from its prompt cache</source>
      <translation>提供商从提示词缓存中提供的输入 token</translation>
    </message>
    <message>
      <source>Wall-clock duration</source>
      <translation>实际耗时</translation>
    </message>
    <message>
      <source>(no runtime id)</source>
      <translation>（无运行时 ID）</translation>
    </message>
    <message>
      <source>Step {step}</source>
      <translation>步骤 {step}</translation>
    </message>
    <message>
      <source>unknown model</source>
      <translation>未知模型</translation>
    </message>
    <message>
      <source>Session {id}</source>
      <translation>会话 {id}</translation>
    </message>
    <message>
      <source>Turn id {id}, started {time}</source>
      <translation>轮次 ID {id}，开始于 {time}</translation>
    </message>
    <message>
      <source>Plugin {plugin}</source>
      <translation>插件 {plugin}</translation>
    </message>
    <message>
      <source>{n} turn</source>
      <translation>{n} 个轮次</translation>
    </message>
    <message>
      <source>{n} turns</source>
      <translation>{n} 个轮次</translation>
    </message>
    <message>
      <source>{n} request</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>{n} requests</source>
      <translation>{n} 个请求</translation>
    </message>
    <message>
      <source>Turn {number}</source>
      <translation>第 {number} 轮</translation>
    </message>
    <message>
      <source>no result</source>
      <translation>无结果</translation>
    </message>
    <message>
      <source>no stage</source>
      <translation>无阶段</translation>
    </message>
    <message>
      <source>Failed: {error}</source>
      <translation>失败：{error}</translation>
    </message>
    <message>
      <source>attempt {attempt}</source>
      <translation>第 {attempt} 次尝试</translation>
    </message>
    <message>
      <source>No model request with id {id} in this database.</source>
      <translation>此数据库中没有 ID 为 {id} 的模型请求。</translation>
    </message>
  </context>
  <context>
    <name>AnatomyModel</name>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Role</source>
      <translation>角色</translation>
    </message>
    <message>
      <source>Recognised by</source>
      <translation>识别依据</translation>
    </message>
    <message>
      <source>Tokens</source>
      <translation>Token</translation>
    </message>
    <message>
      <source>Estimate</source>
      <translation>估算</translation>
    </message>
    <message>
      <source>Share</source>
      <translation>占比</translation>
    </message>
    <message>
      <source>The part of the request, as Covel assembled it</source>
      <translation>请求的组成部分，按 Covel 的组装方式划分</translation>
    </message>
    <message>
      <source>Message role</source>
      <translation>消息角色</translation>
    </message>
    <message>
      <source>How the part was recognised: sentinel, marker, position, structure or guess</source>
      <translation>该部分的识别方式：哨兵、标记、位置、结构或推测</translation>
    </message>
    <message>
      <source>Exact tokens with the model's tokenizer (or its closest proxy)</source>
      <translation>用模型的分词器（或最接近的替代）计算的精确 token 数</translation>
    </message>
    <message>
      <source>Covel's own estimate (characters / 4, CJK characters one each)</source>
      <translation>Covel 自己的估算（字符数 / 4，每个中日韩字符计 1）</translation>
    </message>
    <message>
      <source>Share of the whole request's exact tokens</source>
      <translation>占整个请求精确 token 数的比例</translation>
    </message>
    <message>
      <source>── cache breakpoint ──</source>
      <translation>── 缓存断点 ──</translation>
    </message>
    <message>
      <source>The provider caches the request up to this point ({label})</source>
      <translation>服务商会缓存到此处为止的请求（{label}）</translation>
    </message>
  </context>
  <context>
    <name>CompareView</name>
    <message>
      <source>equal</source>
      <translation>相同</translation>
    </message>
    <message>
      <source>changed</source>
      <translation>已修改</translation>
    </message>
    <message>
      <source>added</source>
      <translation>新增</translation>
    </message>
    <message>
      <source>removed</source>
      <translation>移除</translation>
    </message>
    <message>
      <source>Section</source>
      <translation>区域</translation>
    </message>
    <message>
      <source>Part</source>
      <translation>部分</translation>
    </message>
    <message>
      <source>Status</source>
      <translation>状态</translation>
    </message>
    <message>
      <source>Left tokens</source>
      <translation>左侧 token</translation>
    </message>
    <message>
      <source>Right tokens</source>
      <translation>右侧 token</translation>
    </message>
    <message>
      <source>First difference</source>
      <translation>首个差异</translation>
    </message>
    <message>
      <source>The two requests are identical part by part.</source>
      <translation>两个请求逐部分完全相同。</translation>
    </message>
    <message>
      <source>&lt;b&gt;Left&lt;/b&gt; {left} · &lt;b&gt;Right&lt;/b&gt; {right}</source>
      <translation>&lt;b&gt;左&lt;/b&gt; {left} · &lt;b&gt;右&lt;/b&gt; {right}</translation>
    </message>
    <message>
      <source>{equal} equal, {changed} changed, {added} added, {removed} removed parts</source>
      <translation>{equal} 个相同、{changed} 个修改、{added} 个新增、{removed} 个移除的部分</translation>
    </message>
    <message>
      <source>char {n}</source>
      <translation>第 {n} 个字符</translation>
    </message>
    <message>
      <source>first difference</source>
      <translation>首个差异</translation>
    </message>
    <message>
      <source>First difference: &lt;b&gt;{path}&lt;/b&gt; at character {offset}</source>
      <translation>首个差异：&lt;b&gt;{path}&lt;/b&gt;，第 {offset} 个字符</translation>
    </message>
    <message>
      <source>Left: {path}</source>
      <translation>左：{path}</translation>
    </message>
    <message>
      <source>Right: {path}</source>
      <translation>右：{path}</translation>
    </message>
    <message>
      <source>(absent)</source>
      <translation>（不存在）</translation>
    </message>
  </context>
  <context>
    <name>RequestView</name>
    <message>
      <source>Compare with…</source>
      <translation>与…比较</translation>
    </message>
    <message>
      <source>Filter by runtime, model or id</source>
      <translation>按运行时、模型或 ID 筛选</translation>
    </message>
    <message>
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <source>Copy the anatomy or the provider body</source>
      <translation>复制请求结构或服务商请求体</translation>
    </message>
    <message>
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <source>Save the anatomy or the provider body to a file</source>
      <translation>将请求结构或服务商请求体保存到文件</translation>
    </message>
    <message>
      <source>Compare</source>
      <translation>比较</translation>
    </message>
    <message>
      <source>Compare this request with another one, part by part</source>
      <translation>将此请求与另一个请求逐部分比较</translation>
    </message>
    <message>
      <source>Segment stack</source>
      <translation>片段栈</translation>
    </message>
    <message>
      <source>Turn context</source>
      <translation>回合上下文</translation>
    </message>
    <message>
      <source>History bags</source>
      <translation>历史分组</translation>
    </message>
    <message>
      <source>Anatomy</source>
      <translation>结构</translation>
    </message>
    <message>
      <source>Kernel messages</source>
      <translation>内核消息</translation>
    </message>
    <message>
      <source>Provider body</source>
      <translation>服务商请求体</translation>
    </message>
    <message>
      <source>Response</source>
      <translation>响应</translation>
    </message>
    <message>
      <source>Raw event</source>
      <translation>原始事件</translation>
    </message>
    <message>
      <source>Copy Anatomy as &amp;Markdown</source>
      <translation>将结构复制为 Markdown(&amp;M)</translation>
    </message>
    <message>
      <source>Copy Anatomy as &amp;JSON</source>
      <translation>将结构复制为 JSON(&amp;J)</translation>
    </message>
    <message>
      <source>Copy &amp;Provider Body</source>
      <translation>复制服务商请求体(&amp;P)</translation>
    </message>
    <message>
      <source>Anatomy as &amp;Markdown…</source>
      <translation>结构（Markdown）(&amp;M)…</translation>
    </message>
    <message>
      <source>Anatomy as &amp;JSON…</source>
      <translation>结构（JSON）(&amp;J)…</translation>
    </message>
    <message>
      <source>&amp;Provider Body…</source>
      <translation>服务商请求体(&amp;P)…</translation>
    </message>
    <message>
      <source>Compare with &amp;Previous Turn</source>
      <translation>与上一回合比较(&amp;P)</translation>
    </message>
    <message>
      <source>Compare &amp;with…</source>
      <translation>与…比较(&amp;W)</translation>
    </message>
    <message>
      <source>Request not shown</source>
      <translation>未显示请求</translation>
    </message>
    <message>
      <source>kernel messages</source>
      <translation>内核消息</translation>
    </message>
    <message>
      <source>payload.messages and tools as Covel recorded them</source>
      <translation>Covel 记录的 payload.messages 与工具</translation>
    </message>
    <message>
      <source>the provider body</source>
      <translation>服务商请求体</translation>
    </message>
    <message>
      <source>Export Request</source>
      <translation>导出请求</translation>
    </message>
    <message>
      <source>Comparing…</source>
      <translation>正在比较…</translation>
    </message>
    <message>
      <source>Turn</source>
      <translation>回合</translation>
    </message>
    <message>
      <source>Runtime</source>
      <translation>运行时</translation>
    </message>
    <message>
      <source>Step</source>
      <translation>步骤</translation>
    </message>
    <message>
      <source>Attempt</source>
      <translation>尝试</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Input tokens</source>
      <translation>输入 token</translation>
    </message>
    <message>
      <source>Request id</source>
      <translation>请求 ID</translation>
    </message>
    <message>
      <source>No database is open.</source>
      <translation>尚未打开数据库。</translation>
    </message>
    <message>
      <source>Select a part to see its text</source>
      <translation>选择一个部分以查看其文本</translation>
    </message>
    <message>
      <source>No response was recorded for this request.</source>
      <translation>此请求没有记录响应。</translation>
    </message>
    <message>
      <source>{title} — {tokens} tokens, {share}</source>
      <translation>{title} — {tokens} 个 token，{share}</translation>
    </message>
    <message>
      <source>finish: {finish} · {ms} ms</source>
      <translation>结束原因：{finish} · {ms} 毫秒</translation>
    </message>
    <message>
      <source>No provider body was recorded; the anatomy uses the kernel messages.</source>
      <translation>没有记录服务商请求体；结构基于内核消息。</translation>
    </message>
    <message>
      <source>none</source>
      <translation>无</translation>
    </message>
    <message>
      <source>complete body</source>
      <translation>完整请求体</translation>
    </message>
    <message>
      <source>failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>the anatomy as Markdown</source>
      <translation>Markdown 格式的结构</translation>
    </message>
    <message>
      <source>the anatomy as JSON</source>
      <translation>JSON 格式的结构</translation>
    </message>
    <message>
      <source>Markdown (*.md);;All files (*)</source>
      <translation>Markdown (*.md);;所有文件 (*)</translation>
    </message>
    <message>
      <source>JSON (*.json);;All files (*)</source>
      <translation>JSON (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>This runtime did not run in an earlier turn of the session.</source>
      <translation>此运行时在本会话更早的回合中没有运行过。</translation>
    </message>
    <message>
      <source>The previous request cannot be read.</source>
      <translation>无法读取上一个请求。</translation>
    </message>
    <message>
      <source>Loading request {id}…</source>
      <translation>正在加载请求 {id}…</translation>
    </message>
    <message>
      <source>Cannot read request {id}: {error}</source>
      <translation>无法读取请求 {id}：{error}</translation>
    </message>
    <message>
      <source>&lt;b&gt;{exact}&lt;/b&gt; tokens ({encoding}, {provenance})</source>
      <translation>&lt;b&gt;{exact}&lt;/b&gt; 个 token（{encoding}，{provenance}）</translation>
    </message>
    <message>
      <source>&lt;b&gt;{est}&lt;/b&gt; estimated tokens</source>
      <translation>估算 &lt;b&gt;{est}&lt;/b&gt; 个 token</translation>
    </message>
    <message>
      <source>turn {turn}</source>
      <translation>回合 {turn}</translation>
    </message>
    <message>
      <source>reported input {input} · cached {cached} · cache write {write} · output {output}</source>
      <translation>上报输入 {input} · 缓存命中 {cached} · 缓存写入 {write} · 输出 {output}</translation>
    </message>
    <message>
      <source>trace_events row {id}</source>
      <translation>trace_events 行 {id}</translation>
    </message>
    <message>
      <source>{title} — none</source>
      <translation>{title} — 无</translation>
    </message>
    <message>
      <source>Attempt {n}</source>
      <translation>第 {n} 次尝试</translation>
    </message>
    <message>
      <source>completeness not recorded</source>
      <translation>未记录完整性</translation>
    </message>
    <message>
      <source>status {code}</source>
      <translation>状态码 {code}</translation>
    </message>
    <message>
      <source>Cache breakpoint ({label}): the provider caches everything before it</source>
      <translation>缓存断点（{label}）：服务商会缓存它之前的全部内容</translation>
    </message>
    <message>
      <source>Copied {what} to the clipboard</source>
      <translation>已将{what}复制到剪贴板</translation>
    </message>
    <message>
      <source>Saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>{id} is not a model request in this database.</source>
      <translation>{id} 不是此数据库中的模型请求。</translation>
    </message>
    <message>
      <source>{n} transport attempts</source>
      <translation>{n} 次传输尝试</translation>
    </message>
    <message>
      <source>retry reason: {reason}</source>
      <translation>重试原因：{reason}</translation>
    </message>
    <message>
      <source>bodyRef → attempt {n} (body resolved from it)</source>
      <translation>bodyRef → 第 {n} 次尝试（请求体由其还原）</translation>
    </message>
    <message>
      <source>body error: {error}</source>
      <translation>请求体错误：{error}</translation>
    </message>
    <message>
      <source>{exact} tokens</source>
      <translation>{exact} 个 token</translation>
    </message>
    <message>
      <source>{est} estimated tokens</source>
      <translation>估算 {est} 个 token</translation>
    </message>
    <message>
      <source>partial body: {n} omitted fields</source>
      <translation>不完整的请求体：省略了 {n} 个字段</translation>
    </message>
    <message>
      <source>Cannot write {path}: {error}</source>
      <translation>无法写入 {path}：{error}</translation>
    </message>
    <message>
      <source>(no runtime)</source>
      <translation>（无运行时）</translation>
    </message>
    <message>
      <source>step {step} · attempt {attempt}</source>
      <translation>步骤 {step} · 尝试 {attempt}</translation>
    </message>
    <message>
      <source>recognised by {how}</source>
      <translation>识别依据：{how}</translation>
    </message>
  </context>
  <context>
    <name>TextPane</name>
    <message>
      <source>Wrap</source>
      <translation>自动换行</translation>
    </message>
    <message>
      <source>Wrap long lines</source>
      <translation>长行自动换行</translation>
    </message>
    <message>
      <source>Find in text (Enter: next, Shift+Enter: previous)</source>
      <translation>在文本中查找（Enter：下一个，Shift+Enter：上一个）</translation>
    </message>
    <message>
      <source>Previous match</source>
      <translation>上一个匹配</translation>
    </message>
    <message>
      <source>Next match</source>
      <translation>下一个匹配</translation>
    </message>
    <message>
      <source>Close (Esc)</source>
      <translation>关闭 (Esc)</translation>
    </message>
    <message>
      <source>No match</source>
      <translation>无匹配</translation>
    </message>
  </context>
</TS>
