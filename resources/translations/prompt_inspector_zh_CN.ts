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
</TS>
